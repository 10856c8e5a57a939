import type { ScriptSegment } from '@reelsmith/contract';
import type { z } from 'zod';

export type Segment = z.infer<typeof ScriptSegment>;

/** Script text as segments (spec "States and transitions"): one per line, blank lines dropped, numbered by position from 0. */
export function splitScript(text: string): Segment[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((segText, segId) => ({ segId, segText }));
}

/** Segments back as editable text, one a line in segId order. */
export function joinScript(segments: readonly Segment[]): string {
  return [...segments]
    .sort((a, b) => a.segId - b.segId)
    .map((segment) => segment.segText)
    .join('\n');
}
