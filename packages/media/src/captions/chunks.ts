import { breakWords, lineWidth } from './lines.js';
import type { CaptionWord } from './timedWords.js';

/** Lines on screen at once: a third line would cover the product. */
export const LINES_PER_CAPTION = 2;
/** The most words a pop-in group holds. */
const GROUP_MAX = 4;

/** Words shown together, in lines, and when: from its first word being said to the next one's (or the segment's end). */
export interface Chunk {
  lines: CaptionWord[][];
  start: number;
  end: number;
}

/** A sentence ends at its mark: a group or caption does not run on into the next sentence's words. */
const ENDS_CLAUSE = /[.!?;:,，。！？；：、…]["'”’）)]*$/u;

/** Chunks in order tile the segment's time: each lasts until the next begins, the first from the segment's start. */
function timed(groups: CaptionWord[][][], start: number, end: number): Chunk[] {
  const firstWord = (lines: CaptionWord[][] | undefined) => ((lines ?? [])[0] ?? [])[0] as CaptionWord;
  return groups.map((lines, i) => ({
    lines,
    start: i === 0 ? start : firstWord(lines).start,
    end: i === groups.length - 1 ? end : firstWord(groups[i + 1]).start,
  }));
}

/**
 * A segment's words as captions of at most two lines no wider than `maxEms`: a segment too long for two lines
 * becomes several, one after another, each shown from its first word to the next caption's.
 */
export function lineChunks(words: CaptionWord[], maxEms: number, start: number, end: number): Chunk[] {
  let lines = breakWords(words, maxEms);
  // An odd count leaves a last caption of one short line: spread the words over one line more instead.
  if (lines.length > LINES_PER_CAPTION && lines.length % 2 === 1) lines = breakWords(words, maxEms, lines.length + 1);
  const groups: CaptionWord[][][] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_CAPTION) groups.push(lines.slice(i, i + LINES_PER_CAPTION));
  return timed(groups, start, end);
}

/**
 * Two to four words at a time, on one line where they fit (two at most): a group closes at four words, at the end
 * of a clause, or when the next word would not fit; a last lone word joins the group before when it fits there.
 */
export function wordGroups(words: CaptionWord[], maxEms: number, start: number, end: number): Chunk[] {
  const groups: CaptionWord[][] = [];
  let group: CaptionWord[] = [];
  for (const word of words) {
    if (group.length && breakWords([...group, word], maxEms).length > LINES_PER_CAPTION) {
      groups.push(group);
      group = [];
    }
    group.push(word);
    if (group.length >= GROUP_MAX || ENDS_CLAUSE.test(word.text)) {
      groups.push(group);
      group = [];
    }
  }
  if (group.length) groups.push(group);
  const last = groups.at(-1);
  const before = groups.at(-2);
  if (last?.length === 1 && before && before.length < GROUP_MAX && !ENDS_CLAUSE.test(before.at(-1)?.text ?? '')) {
    if (lineWidth([...before, ...last]) <= maxEms) groups.splice(-2, 2, [...before, ...last]);
  }
  return timed(
    groups.map((g) => breakWords(g, maxEms)),
    start,
    end,
  );
}

/** One word at a time, each from when it is said until the next is. */
export const singleWords = (words: CaptionWord[], start: number, end: number): Chunk[] =>
  timed(
    words.map((w) => [[w]]),
    start,
    end,
  );
