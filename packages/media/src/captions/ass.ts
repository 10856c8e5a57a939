import type { Language } from '../script/language.js';
import { speechSeconds } from '../script/rate.js';
import { assDocument, assText } from './assDocument.js';
import { CAPTION_FONT } from './font.js';
import { breakLines } from './lines.js';
import { safeZone } from './safeZone.js';
import { type CaptionLook, captionStyle } from './styles.js';

/** A spoken segment's text and when the voice says it, in seconds on the video's clock. */
export interface CaptionSegment {
  text: string;
  start: number;
  end: number;
}

export interface AssOptions {
  segments: CaptionSegment[];
  styleId: string;
  /** The video frame: ASS coordinates are its pixels, so sizes and line widths are exact. */
  width: number;
  height: number;
  language: Language;
}

/** Lines on screen at once: a third line would cover the product. */
const LINES_PER_CAPTION = 2;
/** Share of the frame width the text may use, inside the safe zone's. */
const TEXT_WIDTH = 0.84;

/** The share of the width the lines may take in a `width`×`height` frame. */
const textShare = (width: number, height: number) => {
  const zone = safeZone(width, height);
  return Math.min(TEXT_WIDTH, zone.right - zone.left);
};

/** ASS colours are &HAABBGGRR. */
const colour = (rgb: string, alpha = 0) =>
  `&H${alpha.toString(16).padStart(2, '0')}${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}`.toUpperCase();

function styleLine(look: CaptionLook, width: number, height: number): string {
  const size = Math.round(Math.min(width, height) * look.size);
  const margin = Math.round((width * (1 - textShare(width, height))) / 2);
  // The outline or box reaches this far past the letters: it stays inside the safe zone too.
  const edge = size * look.edgeWidth;
  const zone = safeZone(width, height);
  const marginV = look.alignment === 2 ? (1 - zone.bottom) * height + edge : look.alignment === 8 ? zone.top * height + edge : 0;
  return [
    'Style: Caption',
    CAPTION_FONT,
    size,
    colour(look.text),
    colour(look.text),
    colour(look.edge, look.edgeAlpha),
    colour('000000', 128),
    -1,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    look.borderStyle,
    Math.max(1, Math.round(size * look.edgeWidth)),
    look.shadow,
    look.alignment,
    margin,
    margin,
    Math.round(marginV),
    1,
  ].join(',');
}

/**
 * A segment too long for two lines becomes several captions one after another; each keeps the screen for
 * the share of the segment's time its words take to say, so the text follows the voice.
 */
function captions({ text, start, end }: CaptionSegment, maxEms: number, language: Language) {
  let lines = breakLines(assText(text), maxEms);
  // An odd count leaves a last caption of one short line: spread the words over one line more instead.
  if (lines.length > LINES_PER_CAPTION && lines.length % 2 === 1) lines = breakLines(assText(text), maxEms, lines.length + 1);
  const groups: string[][] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_CAPTION) groups.push(lines.slice(i, i + LINES_PER_CAPTION));
  const weights = groups.map((group) => Math.max(speechSeconds(group.join(' '), language), 0.1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  let at = start;
  return groups.map((group, index) => {
    const from = at;
    at = index === groups.length - 1 ? end : at + ((end - start) * (weights[index] as number)) / total;
    return { text: group.join('\\N'), start: from, end: at };
  });
}

/** Subtitles for a whole video as ASS text, for the renderer's subtitles filter (with `captionFontsDir()`). */
export function buildAss({ segments, styleId, width, height, language }: AssOptions): string {
  const { look } = captionStyle(styleId);
  const size = Math.min(width, height) * look.size;
  const maxEms = (width * textShare(width, height)) / size;
  const events = segments
    .filter((segment) => segment.text.trim() && segment.end > segment.start)
    .flatMap((segment) => captions(segment, maxEms, language))
    .map((c) => ({ layer: 0, start: c.start, end: c.end, style: 'Caption', name: '', text: c.text }));
  return assDocument(width, height, [styleLine(look, width, height)], events);
}
