/**
 * The pieces of the ASS documents the captions and the cards are written in: the clock, colours, safe text, the
 * document itself and the merge of the cards' document into the captions' one (libass draws one file per piece
 * of the render).
 */

const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding';
const EVENT_FORMAT = 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text';

/** `#rrggbb` as an ASS colour override value (`&HBBGGRR&`); anything else is refused. */
export function assColour(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new RangeError(`colour must be written #rrggbb, not ${JSON.stringify(hex)}`);
  const [, r, g, b] = match as unknown as [string, string, string, string];
  return `&H${b}${g}${r}&`.toUpperCase();
}

/** An opacity (0 transparent … 1 opaque) as an ASS alpha override value (`&H00&` opaque … `&HFF&` clear). */
export function assAlpha(opacity: number): string {
  const alpha = Math.round((1 - Math.min(1, Math.max(0, opacity))) * 255);
  return `&H${alpha.toString(16).padStart(2, '0').toUpperCase()}&`;
}

/** Seconds on the ASS clock, H:MM:SS.cc. */
export function assTime(seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 100));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(total / 360_000)}:${two(Math.floor(total / 6000) % 60)}:${two(Math.floor(total / 100) % 60)}.${two(total % 100)}`;
}

/**
 * Page text made safe for an event: braces would open an override block and a backslash a tag (`\N`, `\p1`),
 * so a product name can never restyle or break the card; they become round brackets and a slash.
 */
export function assText(text: string): string {
  return text.replace(/[{}]/g, (b) => (b === '{' ? '(' : ')')).replace(/\\/g, '/');
}

export interface AssStyle {
  name: string;
  font: string;
  size: number;
  bold: boolean;
  /** 1: outline and shadow; 3: an opaque box behind each line, in the outline colour. */
  borderStyle: 1 | 3;
}

/** A card style line: white, no outline, top-left aligned, no margins; every event sets what it needs itself. */
export function cardStyleLine(style: AssStyle): string {
  const { name, font, size, bold, borderStyle } = style;
  return `Style: ${name},${font},${Math.round(size)},&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,${bold ? -1 : 0},0,0,0,100,100,0,0,${borderStyle},0,0,7,0,0,0,1`;
}

export interface AssEvent {
  layer: number;
  start: number;
  end: number;
  style: string;
  /** What the event is part of (the Name field, unused by libass): a card's kind, so tests can find it. */
  name: string;
  /** Override tags and text, as written after the ten fields. */
  text: string;
}

/**
 * One complete document at the frame's pixels (PlayResX/Y = width/height), no automatic wrapping (the lines are
 * broken before), with its style lines (`Style: …`) and events; an event with no time is left out.
 */
export function assDocument(width: number, height: number, styleLines: string[], events: AssEvent[]): string {
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    STYLE_FORMAT,
    ...styleLines,
    '',
    '[Events]',
    EVENT_FORMAT,
    ...events
      .filter((e) => e.end > e.start)
      .map((e) => `Dialogue: ${e.layer},${assTime(e.start)},${assTime(e.end)},${e.style},${e.name},0,0,0,,${e.text}`),
    '',
  ].join('\n');
}

interface Parsed {
  info: string[];
  styleFormat: string | undefined;
  styles: string[];
  eventFormat: string | undefined;
  events: string[];
}

/** Splits a document into its sections' lines (comments and blank lines dropped). */
function parse(document: string): Parsed {
  const parsed: Parsed = { info: [], styleFormat: undefined, styles: [], eventFormat: undefined, events: [] };
  let section = '';
  for (const raw of document.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (/^\[.*\]$/.test(line.trim())) {
      section = line.trim().toLowerCase();
      continue;
    }
    if (!line.trim() || line.startsWith(';')) continue;
    if (section === '[script info]') parsed.info.push(line);
    else if (section === '[v4+ styles]') {
      if (line.startsWith('Format:')) parsed.styleFormat = line;
      else if (line.startsWith('Style:')) parsed.styles.push(line);
    } else if (section === '[events]') {
      if (line.startsWith('Format:')) parsed.eventFormat = line;
      else if (/^(Dialogue|Comment):/.test(line)) parsed.events.push(line);
    }
  }
  return parsed;
}

const infoValue = (info: string[], key: string) =>
  info
    .find((line) => line.toLowerCase().startsWith(`${key.toLowerCase()}:`))
    ?.slice(key.length + 1)
    .trim();
const styleName = (line: string) => line.slice('Style:'.length).split(',')[0]?.trim() ?? '';

/**
 * One document from several drawn on the same frame (the captions and the cards): the first one's header, then
 * every style and every event. They must share the frame's size and the field formats, and no two styles may
 * share a name (an event would take the wrong one's look): each is refused with an error naming it.
 */
export function mergeAss(first: string, ...more: string[]): string {
  const docs = [first, ...more].map(parse);
  const head = docs[0] as Parsed;
  const seen = new Set<string>();
  for (const [i, doc] of docs.entries()) {
    for (const key of ['PlayResX', 'PlayResY']) {
      if (infoValue(doc.info, key) !== infoValue(head.info, key)) {
        throw new Error(`ASS document ${i + 1} has ${key} ${infoValue(doc.info, key)}, the first ${infoValue(head.info, key)}`);
      }
    }
    if (doc.styles.length && doc.styleFormat !== (head.styleFormat ?? STYLE_FORMAT))
      throw new Error(`ASS document ${i + 1} has another style format`);
    if (doc.events.length && doc.eventFormat !== (head.eventFormat ?? EVENT_FORMAT))
      throw new Error(`ASS document ${i + 1} has another event format`);
    for (const style of doc.styles) {
      const name = styleName(style);
      if (seen.has(name)) throw new Error(`ASS style ${name} is defined twice`);
      seen.add(name);
    }
  }
  return [
    '[Script Info]',
    ...head.info,
    '',
    '[V4+ Styles]',
    head.styleFormat ?? STYLE_FORMAT,
    ...docs.flatMap((d) => d.styles),
    '',
    '[Events]',
    head.eventFormat ?? EVENT_FORMAT,
    ...docs.flatMap((d) => d.events),
    '',
  ].join('\n');
}
