// Captions as a viewer reads them: a short clip with the captions burnt in by libass (as the renderer does), read back
// by Tesseract at the words' times, in each language.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readText } from '../../../e2e/support/ocr.js';
import { buildAss, CAPTIONS, captionFontsDir, locateTools, runTool, spokenWords, spreadWords } from '../src/index.js';
import { captionEvents } from './captionEvents.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-captions-ocr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const [WIDTH, HEIGHT, SECONDS] = [720, 1280, 9];

/** Hook, fact, call to action, as the writers make them. */
const SCRIPTS = {
  en: {
    tesseract: 'eng',
    lines: ['Meet HydroPeak, your new bottle.', 'Drinks stay cold for a whole day.', 'Tap the link and get yours today.'],
  },
  pt: {
    tesseract: 'por',
    lines: ['Conheça a HydroPeak, sua garrafa.', 'Sua bebida fica gelada o dia todo.', 'Toque no link e garanta a sua.'],
  },
  zh: { tesseract: 'chi_sim', lines: ['认识这款保温杯。', '一整天都保持冰爽。', '点击链接立即购买。'] },
} as const;

/** The segments on the clip's clock: each line in its own stretch, the words spread over it, a breath between. */
function segmentsOf(lines: readonly string[]) {
  const slot = (SECONDS - 0.8) / lines.length;
  return lines.map((text, i) => {
    const [start, end] = [0.2 + i * slot, 0.2 + i * slot + slot - 0.4];
    return { text, start, end, words: spreadWords(spokenWords(text), start, end) };
  });
}

/** A word as compared: lower case, letters and figures only (Chinese without the spaces Tesseract puts between). */
const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

describe('captions read back from the video', () => {
  for (const [language, { tesseract, lines }] of Object.entries(SCRIPTS) as [keyof typeof SCRIPTS, (typeof SCRIPTS)['en']][]) {
    it(`shows every word of the ${language} script, and the call to action before the end`, async () => {
      const segments = segmentsOf(lines);
      const styleId = (CAPTIONS[0] as { captionId: string }).captionId;
      const ass = buildAss({ segments, styleId, width: WIDTH, height: HEIGHT, language });
      const assFile = join(dir, `${language}.ass`);
      writeFileSync(assFile, ass);
      const clip = join(dir, `${language}.mp4`);
      const { ffmpeg } = locateTools();
      await runTool(ffmpeg, [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x2b3645:s=${WIDTH}x${HEIGHT}:d=${SECONDS}:r=10`],
        ...['-vf', `subtitles=filename=${assFile}:fontsdir=${captionFontsDir()}`, '-c:v', 'libx264', '-preset', 'ultrafast'],
        ...['-pix_fmt', 'yuv420p', clip],
      ]);
      // One frame in the middle of each caption on screen (each karaoke step shows its whole caption).
      const shown = new Map<string, number>();
      for (const event of captionEvents(ass)) {
        const key = event.text.join('|');
        if (!shown.has(key)) shown.set(key, (event.start + event.end) / 2);
      }
      const read: string[] = [];
      for (const [i, at] of [...shown.values()].entries()) {
        const frame = join(dir, `${language}-${i}.png`);
        await runTool(ffmpeg, ['-v', 'error', '-y', '-ss', at.toFixed(2), '-i', clip, '-frames:v', '1', frame]);
        read.push(bare(await readText(readFileSync(frame), tesseract)));
      }
      const all = read.join(' ');
      const words = lines.flatMap(spokenWords).map(bare);
      const missing = words.filter((word) => !all.includes(word));
      expect(missing, `read: ${read.join(' | ')}`).toEqual([]);

      // The call to action: its last word lit, on screen before the clip ends, readable whole.
      const cta = segments.at(-1)?.words.at(-1) as { start: number; end: number };
      expect(cta.end).toBeLessThan(SECONDS);
      const last = join(dir, `${language}-cta.png`);
      await runTool(ffmpeg, ['-v', 'error', '-y', '-ss', ((cta.start + cta.end) / 2).toFixed(2), '-i', clip, '-frames:v', '1', last]);
      const ctaRead = bare(await readText(readFileSync(last), tesseract));
      for (const word of spokenWords(lines.at(-1) as string).map(bare)) expect(ctaRead, ctaRead).toContain(word);
    }, 120_000);
  }
});
