import type { Language } from '../script/language.js';
import { type AssEvent, assDocument } from './assDocument.js';
import { type Chunk, lineChunks, singleWords, wordGroups } from './chunks.js';
import { CAPTION_FONT } from './font.js';
import { type CaptionAvoid, edgeOf, type Frame, frameOf, placeBlock, textShare } from './layout.js';
import { lineWidth } from './lines.js';
import { type CaptionLook, type CaptionStyleDefinition, captionStyle } from './styles.js';
import { type CaptionSegment, type CaptionWord, captionWords, keyWordTest } from './timedWords.js';
import { chunkEvents, KEY_PEAK } from './timing.js';

export type { AvoidBox, CaptionAvoid } from './layout.js';
export type { CaptionSegment } from './timedWords.js';

export interface AssOptions {
  segments: CaptionSegment[];
  styleId: string;
  /** The video frame: ASS coordinates are its pixels, so sizes and line widths are exact. */
  width: number;
  height: number;
  language: Language;
  /** Words the key-word style sets larger in its accent colour: the product's name, its price. Figures always are. */
  keyWords?: readonly string[] | undefined;
  /** Where the product is on screen and when: no caption covers it. */
  avoid?: readonly CaptionAvoid[] | undefined;
}

/** ASS colours are &HAABBGGRR. */
const colour = (rgb: string, alpha = 0) =>
  `&H${alpha.toString(16).padStart(2, '0')}${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}`.toUpperCase();

/** The style line: its events place themselves (`\an\pos`), so its alignment and margins do not matter. */
function styleLine(look: CaptionLook, frame: Frame): string {
  return [
    'Style: Caption',
    CAPTION_FONT,
    frame.size,
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
    Math.max(1, Math.round(frame.size * look.edgeWidth)),
    look.shadow,
    look.alignment,
    0,
    0,
    0,
    1,
  ].join(',');
}

/** A segment's words in the chunks its style shows them in. */
function chunksOf(style: CaptionStyleDefinition, words: CaptionWord[], segment: CaptionSegment, maxEms: number): Chunk[] {
  if (style.timing === 'word') return singleWords(words, segment.start, segment.end);
  if (style.timing === 'groups') return wordGroups(words, maxEms, segment.start, segment.end);
  return lineChunks(words, maxEms, segment.start, segment.end);
}

/**
 * Subtitles for a whole video as ASS text, for the renderer's subtitles filter (with `captionFontsDir()`): each
 * segment's words in its style, timed by the words (decision "Word-timed captions"), inside the platform's safe
 * zone and off the product.
 */
export function buildAss({ segments, styleId, width, height, language, keyWords = [], avoid = [] }: AssOptions): string {
  const style = captionStyle(styleId);
  const { look } = style;
  const frame = frameOf(look, width, height);
  const maxEms = (width * textShare(width, height)) / frame.size;
  const isKey = style.timing === 'keywords' ? keyWordTest(keyWords) : () => false;
  const events: AssEvent[] = segments
    .filter((segment) => segment.text.trim() && segment.end > segment.start)
    .flatMap((segment) => {
      const words = captionWords(segment, isKey).map((w) => ({
        ...w,
        text: look.upper && language !== 'zh' ? w.text.toLocaleUpperCase(language) : w.text,
        // A key word takes the room of its peak, so the line still fits as it pops.
        scale: w.key ? KEY_PEAK : 1,
      }));
      return chunksOf(style, words, segment, maxEms).flatMap((chunk) => {
        // A word wider than the line (one word, large) is set smaller to fit.
        const fit = Math.min(1, maxEms / Math.max(...chunk.lines.map(lineWidth)));
        const block = {
          width: Math.max(...chunk.lines.map(lineWidth)) * frame.size * fit,
          height: chunk.lines.reduce((sum, line) => sum + Math.max(...line.map((w) => (w.key ? KEY_PEAK : 1))), 0) * frame.size * fit,
        };
        const covered = avoid.filter((a) => a.start < chunk.end && a.end > chunk.start);
        const place = placeBlock(
          look,
          frame,
          block,
          covered.filter((a) => !a.firm).map((a) => a.box),
          covered.filter((a) => a.firm).map((a) => a.box),
        );
        const scale = place.scale * fit;
        const size =
          scale === 1 ? '' : `\\fs${Math.round(frame.size * scale)}\\bord${Math.max(1, Math.round(edgeOf(look, frame.size * scale).edge))}`;
        // The pop-in styles grow from their middle; the others stand on their bottom line.
        const anchor =
          style.timing === 'groups' || style.timing === 'word'
            ? `\\an5\\pos(${Math.round(place.x)},${Math.round(place.y - (block.height * place.scale) / 2)})`
            : `\\an2\\pos(${Math.round(place.x)},${Math.round(place.y)})`;
        return chunkEvents(style, chunk, `{${anchor}${size}}`);
      });
    });
  return assDocument(width, height, [styleLine(look, frame)], events);
}
