// When a task under way should end, on this browser's clock (decision "Progress estimates"): its query's answer
// says how long tasks like it took on the server and how long ago it was submitted, and the rest is counted from
// the moment that answer arrived, so a browser whose clock is off still counts the right seconds.
import type { TaskState } from '@reelsmith/contract';
import type { z } from 'zod';

type Timed = Pick<z.infer<typeof TaskState>, 'expectedSeconds' | 'elapsedSeconds'>;

/** The end an answer received at `receivedAt` (ms, this clock) tells; null when the server has no estimate. */
export function endsAtOf(answer: Timed | undefined, receivedAt: number): number | null {
  if (answer?.expectedSeconds === undefined || answer.elapsedSeconds === undefined) return null;
  return receivedAt + (answer.expectedSeconds - answer.elapsedSeconds) * 1000;
}

/** When the last of several tasks should end: the work is done when they all are; unknown if any one is. */
export function lastEnd(ends: readonly (number | null)[]): number | null {
  if (ends.length === 0 || ends.includes(null)) return null;
  return Math.max(...(ends as number[]));
}
