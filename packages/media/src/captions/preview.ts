import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from '../run.js';
import type { Language } from '../script/language.js';
import { locateTools, type MediaTools } from '../tools.js';
import { buildAss } from './ass.js';
import { captionFontsDir } from './font.js';

export interface CaptionPreviewOptions {
  /** What the preview says; a sample line in `language` when absent. */
  text?: string | undefined;
  language?: Language | undefined;
  /** A 9:16 frame, the ads' default shape, at preview size. */
  width?: number;
  height?: number;
  tools?: MediaTools | undefined;
}

const SAMPLE: Record<Language, string> = {
  en: 'Your product, in the spotlight',
  zh: '让你的产品闪耀全场',
  pt: 'Seu produto em destaque',
};

/** Quotes a path for an ffmpeg filter option: the filter graph gives `:`, `'` and `\` their own meanings. */
const filterPath = (path: string) => `'${path.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;

/**
 * A still of a caption style over a dark backdrop (PNG, or whatever `outFile`'s extension says), rendered by
 * libass exactly as the renderer burns captions in, with the shipped CJK font.
 */
export async function captionPreview(styleId: string, outFile: string, options: CaptionPreviewOptions = {}): Promise<string> {
  const { language = 'en', width = 540, height = 960, tools = locateTools() } = options;
  const ass = buildAss({ segments: [{ text: options.text ?? SAMPLE[language], start: 0, end: 5 }], styleId, width, height, language });
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-caption-'));
  try {
    const assFile = join(dir, 'preview.ass');
    await writeFile(assFile, ass);
    await runTool(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x2b3645:s=${width}x${height}:d=1`],
      ...['-vf', `subtitles=filename=${filterPath(assFile)}:fontsdir=${filterPath(captionFontsDir())}`, '-frames:v', '1', outFile],
    ]);
    return outFile;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
