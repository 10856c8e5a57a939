import { rm } from 'node:fs/promises';
import sharp from 'sharp';
import type { Language } from '../script/language.js';
import { spokenWords, spreadWords } from '../speech/words.js';
import type { MediaTools } from '../tools.js';
import { buildAss } from './ass.js';
import { captionFrame, SAMPLE_PRODUCT, sampleBackdrop } from './frame.js';

/** Bumped whenever the previews' look changes: it names their cached files and their addresses. */
export const CAPTION_PREVIEW_VERSION = 4;

export interface CaptionPreviewOptions {
  /** What the preview says; a sample line in `language` when absent. */
  text?: string | undefined;
  language?: Language | undefined;
  tools?: MediaTools | undefined;
}

/** A sample line with a product name and a figure, so the key-word style has something to show. */
const SAMPLE: Record<Language, { text: string; name: string }> = {
  en: { text: 'Meet Aurora, cold for 24 hours', name: 'Aurora' },
  // Long enough for two lines: one long Chinese line would be cut wide and its type small.
  zh: { text: '极光杯，保冷24小时，轻巧好带', name: '极光杯' },
  pt: { text: 'Conheça a Aurora, gelada por 24 horas', name: 'Aurora' },
};

/** The frame a preview is drawn in (9:16, the ads' default shape) and the part of it the thumbnail keeps (4:3). */
const FRAME = { width: 540, height: 960 };
/** The thumbnail: 4:3 at twice the picker's tile width, so it stays sharp on a dense screen. */
export const THUMBNAIL = { width: 360, aspect: 4 / 3 };
/** The narrowest part of the frame a thumbnail shows: a single word keeps some of the shot around it. */
const MIN_CROP_WIDTH = 240;
const SECONDS = 3;

/**
 * A style's picker thumbnail: its caption over a sample product shot, drawn by libass exactly as the renderer burns
 * captions in, at a moment in the middle of the product's name (the lit word, the popped group, the one word), kept
 * off the product like a video's; cut to the 4:3 band around the caption so the type stays legible at the
 * thumbnail's size (a whole 9:16 frame would show it a third as tall).
 */
export async function captionPreview(styleId: string, outFile: string, options: CaptionPreviewOptions = {}): Promise<string> {
  const { language = 'en', tools } = options;
  const sample = SAMPLE[language];
  const text = options.text ?? sample.text;
  const { width, height } = FRAME;
  const words = spreadWords(spokenWords(text), 0, SECONDS);
  // The product's name being said: the word lit, the group popped, the one word shown.
  const named = new Set(spokenWords(sample.name));
  const moment = words.find((w) => named.has(w.word.replace(/[^\p{L}\p{N}]/gu, ''))) ?? words[Math.min(1, words.length - 1)];
  const at = moment ? (moment.start + moment.end) / 2 : SECONDS / 2;
  const ass = buildAss({
    segments: [{ text, start: 0, end: SECONDS, words }],
    styleId,
    width,
    height,
    language,
    keyWords: [sample.name],
    avoid: [{ start: 0, end: SECONDS, box: SAMPLE_PRODUCT }],
  });
  const backdrop = await sampleBackdrop(width, height);
  const frame = `${outFile}.frame.png`;
  try {
    await captionFrame({ ass, width, height, at, outFile: frame, backdrop, tools });
    const ink = await inkBox(frame, backdrop);
    // The caption and some of the shot around it, in the thumbnail's shape; wide captions keep the whole width.
    const w = Math.round(Math.min(width, Math.max(MIN_CROP_WIDTH, (ink.right - ink.left) * 1.2)));
    const h = Math.round(w / THUMBNAIL.aspect);
    const clampTo = (v: number, most: number) => Math.round(Math.min(most, Math.max(0, v)));
    const left = clampTo((ink.left + ink.right - w) / 2, width - w);
    const top = clampTo((ink.top + ink.bottom - h) / 2, height - h);
    await sharp(frame)
      .extract({ left, top, width: w, height: h })
      .resize(THUMBNAIL.width, Math.round(THUMBNAIL.width / THUMBNAIL.aspect))
      .toFile(outFile);
  } finally {
    await rm(frame, { force: true });
  }
  return outFile;
}

/** The box of what the captions inked: where the frame differs from its backdrop (the whole frame if nothing). */
async function inkBox(frame: string, backdrop: Buffer) {
  const [drawn, plain] = await Promise.all(
    [frame, backdrop].map((input) => sharp(input).greyscale().raw().toBuffer({ resolveWithObject: true })),
  );
  const { data, info } = drawn as { data: Buffer; info: { width: number; height: number } };
  let [left, top, right, bottom] = [info.width, info.height, 0, 0];
  for (let p = 0; p < data.length; p++) {
    if (Math.abs((data[p] as number) - ((plain as { data: Buffer }).data[p] as number)) <= 24) continue;
    const [x, y] = [p % info.width, Math.floor(p / info.width)];
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
  }
  return right >= left ? { left, top, right, bottom } : { left: 0, top: 0, right: info.width, bottom: info.height };
}
