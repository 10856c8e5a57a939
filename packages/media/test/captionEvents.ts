/**
 * Reads the caption events of an ASS document back as the tests check them: when each shows, where it stands (its
 * `\an`, `\pos`, `\fs`), its lines as words with the scale each is set at, and which words are in which colour.
 */
import { CAPTION_STYLES, textWidth } from '../src/index.js';

export interface Run {
  text: string;
  /** The largest `\fscx` this run reaches (a key word's pop), as a factor. */
  scale: number;
  /** The `\c` colour it is drawn in (ASS &HBBGGRR&), or undefined for the style's. */
  colour: string | undefined;
}

export interface CaptionEvent {
  start: number;
  end: number;
  an: number;
  x: number;
  y: number;
  /** The font size the event is set at: its `\fs`, else the style's. */
  size: number;
  lines: Run[][];
  /** The plain text of each line. */
  text: string[];
}

export const seconds = (clock = '') => {
  const [h, m, s] = clock.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

/** A line's runs between override blocks, each with the scale and colour in force. */
function runs(line: string, state: { scale: number; colour: string | undefined }): Run[] {
  const out: Run[] = [];
  for (const [, block, text] of line.matchAll(/(\{[^}]*\})?([^{]*)/g)) {
    if (block) {
      const scales = [...block.matchAll(/\\fscx(\d+)/g)].map((m) => Number(m[1]) / 100);
      if (scales.length) state.scale = Math.max(...scales);
      const colour = /\\c(&H[0-9A-F]+&)/.exec(block)?.[1];
      if (colour) state.colour = colour;
    }
    if (text) out.push({ text, scale: state.scale, colour: state.colour });
  }
  return out;
}

export function captionEvents(ass: string): CaptionEvent[] {
  const styleSize = Number(/^Style: Caption,[^,]+,(\d+),/m.exec(ass)?.[1]);
  return ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue:'))
    .map((line) => {
      const [, start, end, , , , , , , ...rest] = line.slice('Dialogue: '.length).split(',');
      const body = rest.join(',');
      const pos = /\\pos\((-?[\d.]+),(-?[\d.]+)\)/.exec(body);
      const state = { scale: 1, colour: undefined as string | undefined };
      const lines = body.split('\\N').map((l) => runs(l, state));
      return {
        start: seconds(start),
        end: seconds(end),
        an: Number(/\\an(\d)/.exec(body)?.[1] ?? 2),
        x: Number(pos?.[1] ?? Number.NaN),
        y: Number(pos?.[2] ?? Number.NaN),
        size: Number(/\\fs(\d+)/.exec(body)?.[1] ?? styleSize),
        lines,
        text: lines.map((l) => l.map((r) => r.text).join('')),
      };
    });
}

/**
 * The pixels an event may ink, worked out from its position and line metrics (a line is as tall as the font size,
 * as libass sets it, and as wide as the glyph-width estimate times its scale) and its style's outline and shadow.
 */
export function eventBox(event: CaptionEvent, captionId: string) {
  const look = CAPTION_STYLES.find((s) => s.captionId === captionId)?.look;
  if (!look) throw new Error(captionId);
  const lineHeights = event.lines.map((line) => Math.max(1, ...line.map((r) => r.scale)) * event.size);
  const width = Math.max(...event.lines.map((line) => line.reduce((sum, r) => sum + textWidth(r.text) * r.scale, 0))) * event.size;
  const height = lineHeights.reduce((a, b) => a + b, 0);
  const edge = event.size * look.edgeWidth;
  const bottom = event.an === 5 ? event.y + height / 2 : event.y;
  return {
    left: event.x - width / 2 - edge,
    right: event.x + width / 2 + edge + look.shadow,
    top: bottom - height - edge,
    bottom: bottom + edge + look.shadow,
  };
}
