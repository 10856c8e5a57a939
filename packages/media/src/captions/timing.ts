import { type AssEvent, assColour } from './assDocument.js';
import type { Chunk } from './chunks.js';
import type { CaptionStyleDefinition } from './styles.js';
import type { CaptionWord } from './timedWords.js';

/** A key word's size beside the line's (per cent), and the peak of its pop when said. */
export const KEY_SCALE = 1.25;
export const KEY_PEAK = 1.4;
/** The pop-in: a group starts at this share of its size (a single word less far) and grows to it, fading in, over POP_MS. */
const POP_FROM = { groups: 70, word: 85 };
const POP_MS = 140;
const FADE_MS = 80;
/** Shorter than this (seconds) a word's lighting is not worth an event: a centisecond is the ASS clock's tick. */
const TICK = 0.01;

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));
const rgb = (hex: string) => assColour(`#${hex}`);

/** A chunk's lines as event text, each word as `dress` writes it, Chinese words joined without spaces. */
const linesText = (chunk: Chunk, dress: (word: CaptionWord) => string) =>
  chunk.lines.map((line) => line.map((w, i) => (i > 0 && w.spaced ? ' ' : '') + dress(w)).join('')).join('\\N');

const event = (start: number, end: number, text: string): AssEvent => ({ layer: 0, start, end, style: 'Caption', name: 'caption', text });

/**
 * The karaoke chunk: the lines on screen all along, one event per stretch in which one word (or none, in a pause)
 * is being said, that word in the accent colour: the lit word's event starts and ends with its timing.
 */
function karaoke(style: CaptionStyleDefinition, chunk: Chunk, head: string): AssEvent[] {
  const words = chunk.lines.flat();
  const times = [chunk.start, chunk.end, ...words.flatMap((w) => [w.start, w.end])]
    .filter((t) => t >= chunk.start && t <= chunk.end)
    .sort((a, b) => a - b)
    .filter((t, i, all) => i === 0 || t - (all[i - 1] as number) >= TICK / 2);
  const lit = (at: number) => words.findLast((w) => w.start <= at && at < w.end);
  const events: AssEvent[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    const [from, to] = [times[i] as number, times[i + 1] as number];
    const word = lit(from + TICK / 4);
    const previous = events.at(-1);
    // A pause within a word's stretch (rounding) continues the event before rather than blinking.
    if (previous && previous.name === `caption:${word ? words.indexOf(word) : '-'}`) {
      previous.end = to;
      continue;
    }
    const text = linesText(chunk, (w) => (w === word ? `{\\c${rgb(style.look.accent)}}${w.text}{\\c${rgb(style.look.text)}}` : w.text));
    events.push({ ...event(from, to, head + text), name: `caption:${word ? words.indexOf(word) : '-'}` });
  }
  return events.map((e) => ({ ...e, name: 'caption' }));
}

/** A key word larger in the accent colour, popping larger still as it is said (`\t` from the event's start). */
function keyWords(style: CaptionStyleDefinition, chunk: Chunk, head: string): AssEvent[] {
  const [at, peak, rest] = [KEY_SCALE * 100, KEY_PEAK * 100, 100];
  const text = linesText(chunk, (w) => {
    if (!w.key) return w.text;
    const from = ms(w.start - chunk.start);
    return (
      `{\\c${rgb(style.look.accent)}\\fscx${at}\\fscy${at}\\t(${from},${from + 120},\\fscx${peak}\\fscy${peak})` +
      `\\t(${from + 120},${from + 320},\\fscx${at}\\fscy${at})}${w.text}{\\c${rgb(style.look.text)}\\fscx${rest}\\fscy${rest}}`
    );
  });
  return [event(chunk.start, chunk.end, head + text)];
}

/** The events of one chunk in its style; `head` places it (`{\an…\pos…}`). */
export function chunkEvents(style: CaptionStyleDefinition, chunk: Chunk, head: string): AssEvent[] {
  switch (style.timing) {
    case 'karaoke':
      return karaoke(style, chunk, head);
    case 'keywords':
      return keyWords(style, chunk, head);
    case 'groups':
    case 'word': {
      const from = POP_FROM[style.timing];
      const pop = `{\\fad(${FADE_MS},0)\\fscx${from}\\fscy${from}\\t(0,${POP_MS},\\fscx100\\fscy100)}`;
      return [event(chunk.start, chunk.end, head + pop + linesText(chunk, (w) => w.text))];
    }
    default:
      return [event(chunk.start, chunk.end, head + linesText(chunk, (w) => w.text))];
  }
}
