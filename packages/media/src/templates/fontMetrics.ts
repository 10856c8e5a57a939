/**
 * Advance widths of the card faces, read from their TrueType files, so a panel is cut to the line libass will
 * set in it. libass sizes a face so that its Windows ascent plus descent is the font size (VSFilter's rule): an
 * em of Noto Sans SC is 1000/1448 of the ASS size, not the size itself.
 */
import { readFileSync } from 'node:fs';

export interface FaceMetrics {
  /** A character's advance in ems (a missing glyph counts as the notdef's). */
  advance(char: string): number;
  /** Ems per unit of ASS font size. */
  emPerSize: number;
}

const loaded = new Map<string, FaceMetrics>();

/** The face's metrics (cmap format 4 and hmtx), read once per file. */
export function faceMetrics(file: string): FaceMetrics {
  const known = loaded.get(file);
  if (known) return known;
  const font = readFileSync(file);
  const tables = new Map<string, number>();
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) tables.set(font.toString('latin1', 12 + 16 * i, 16 + 16 * i), font.readUInt32BE(20 + 16 * i));
  const at = (tag: string) => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`${file} has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = font.readUInt16BE(at('head') + 18);
  const os2 = at('OS/2');
  const cell = font.readUInt16BE(os2 + 74) + font.readUInt16BE(os2 + 76);
  const metricsCount = font.readUInt16BE(at('hhea') + 34);
  // Copies of the two tables the widths need, so the 10–15 MB file is not kept.
  const hmtx = Buffer.from(font.subarray(at('hmtx'), at('hmtx') + 4 * metricsCount));
  const cmap = at('cmap');
  let subtable: Buffer | undefined;
  for (let i = 0, n = font.readUInt16BE(cmap + 2); i < n; i++) {
    const record = cmap + 4 + 8 * i;
    const offset = cmap + font.readUInt32BE(record + 4);
    // Windows Unicode BMP, format 4: every character a card writes (Latin, accents, currencies, Chinese).
    if (font.readUInt16BE(record) === 3 && font.readUInt16BE(record + 2) === 1 && font.readUInt16BE(offset) === 4) {
      subtable = Buffer.from(font.subarray(offset, offset + font.readUInt16BE(offset + 2)));
    }
  }
  if (!subtable) throw new Error(`${file} has no Unicode character map`);
  const map = subtable;
  const segments = map.readUInt16BE(6) / 2;
  const glyphOf = (code: number): number => {
    // The first segment ending at or after the code (the ends are sorted).
    let [low, high] = [0, segments - 1];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (map.readUInt16BE(14 + 2 * mid) < code) low = mid + 1;
      else high = mid;
    }
    const startAt = 16 + 2 * segments + 2 * low;
    const start = map.readUInt16BE(startAt);
    if (code < start || code > map.readUInt16BE(14 + 2 * low)) return 0;
    const delta = map.readInt16BE(startAt + 2 * segments);
    const rangeAt = startAt + 4 * segments;
    const range = map.readUInt16BE(rangeAt);
    if (range === 0) return (code + delta) & 0xffff;
    const glyphAt = rangeAt + range + 2 * (code - start);
    const glyph = glyphAt + 1 < map.length ? map.readUInt16BE(glyphAt) : 0;
    return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
  };
  const metrics: FaceMetrics = {
    advance(char) {
      const code = char.codePointAt(0) ?? 0;
      const glyph = code > 0xffff ? 0 : glyphOf(code);
      return hmtx.readUInt16BE(4 * Math.min(glyph, metricsCount - 1)) / unitsPerEm;
    },
    emPerSize: unitsPerEm / cell,
  };
  loaded.set(file, metrics);
  return metrics;
}
