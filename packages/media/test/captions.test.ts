import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { safeZone } from '../src/captions/safeZone.js';
import { breakLines, buildAss, CAPTIONS, captionFontsDir, captionPreview, locateTools, runTool, textWidth } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-captions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dialogues = (ass: string) =>
  ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue:'))
    .map((line) => {
      const [, start, end, , , , , , , ...text] = line.slice('Dialogue: '.length).split(',');
      return { start, end, lines: text.join(',').split('\\N') };
    });

const seconds = (clock = '') => {
  const [h, m, s] = clock.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

describe('ASS captions', () => {
  it('shows each segment exactly while it is spoken', () => {
    const ass = buildAss({
      segments: [
        { text: 'Meet HydroPeak.', start: 0, end: 1.234 },
        { text: 'Cold all day.', start: 1.534, end: 3.5 },
      ],
      styleId: 'classic',
      width: 1080,
      height: 1920,
      language: 'en',
    });
    expect(ass).toContain('PlayResX: 1080\nPlayResY: 1920');
    expect(ass).toMatch(/^Style: Caption,Noto Sans SC,67,&H00FFFFFF,/m);
    expect(dialogues(ass)).toEqual([
      { start: '0:00:00.00', end: '0:00:01.23', lines: ['Meet HydroPeak.'] },
      { start: '0:00:01.53', end: '0:00:03.50', lines: ['Cold all day.'] },
    ]);
  });

  it('breaks a long segment into even captions of at most two lines that fit the frame and tile its time', () => {
    const text = 'Keeps drinks cold for 24 hours and hot for 12 hours, made of 18/8 stainless steel, BPA free and leak proof.';
    const events = dialogues(
      buildAss({ segments: [{ text, start: 2, end: 7.5 }], styleId: 'boxed', width: 1080, height: 1920, language: 'en' }),
    );
    expect(events.length).toBeGreaterThan(1);
    expect(events[0]?.start).toBe('0:00:02.00');
    expect(events.at(-1)?.end).toBe('0:00:07.50');
    events.slice(1).forEach((event, i) => {
      expect(event.start).toBe(events[i]?.end);
    });
    const maxEms = (1080 * 0.84) / (1080 * 0.058);
    for (const event of events) {
      expect(event.lines.length).toBeLessThanOrEqual(2);
      for (const line of event.lines) expect(textWidth(line)).toBeLessThanOrEqual(maxEms);
      expect(seconds(event.end) - seconds(event.start)).toBeGreaterThan(1);
    }
    expect(events.flatMap((e) => e.lines).join(' ')).toBe(text);
  });

  it('breaks Chinese without adding spaces and never starts a line with closing punctuation', () => {
    const text = '24小时保冷，12小时保温。采用18/8不锈钢，不含双酚A，防漏设计，粉末涂层表面防滑好握。';
    const events = dialogues(
      buildAss({ segments: [{ text, start: 0, end: 6 }], styleId: 'pop', width: 1080, height: 1920, language: 'zh' }),
    );
    const lines = events.flatMap((e) => e.lines);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('')).toBe(text);
    for (const line of lines) expect(line).not.toMatch(/^[，。]/);
  });

  it('breaks Chinese between words, never inside one (冬|季), and keeps the spaces of mixed text', () => {
    // Every break of these lines falls between two of the dictionary's words.
    const words = ['冬季', '保暖', '加厚', '防风', '防水', '轻松', '出行'];
    const text = '冬季保暖加厚外套，防风防水，轻松出行。冬季保暖加厚外套，防风防水，轻松出行。';
    for (const maxEms of [4, 5, 6, 7, 9]) {
      const lines = breakLines(text, maxEms);
      expect(lines.join('')).toBe(text);
      for (let i = 1; i < lines.length; i++) {
        const across = `${(lines[i - 1] as string).slice(-1)}${(lines[i] as string).slice(0, 1)}`;
        expect(words, `${lines.join(' | ')} at ${maxEms} ems`).not.toContain(across);
      }
    }
    expect(breakLines('Meet the 冬季 jacket, 保暖又轻便.', 9)).toEqual(['Meet the', '冬季 jacket,', '保暖又轻便.']);
  });

  it('keeps ASS override syntax out of script text', () => {
    const [event] = dialogues(
      buildAss({ segments: [{ text: 'a {\\b1} b', start: 0, end: 1 }], styleId: 'brand', width: 720, height: 720, language: 'en' }),
    );
    expect(event?.lines).toEqual(['a (/b1) b']);
    expect(() => buildAss({ segments: [], styleId: 'nope', width: 1, height: 1, language: 'en' })).toThrow(/unknown caption style/);
  });
});

/** Pixels of the rendered frame that differ from the plain backdrop: the text the style drew. */
async function inkPixels(file: string): Promise<Uint8Array> {
  const { data } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  const backdrop = data[0] as number;
  return data.map((v) => (Math.abs(v - backdrop) > 24 ? 1 : 0));
}

describe('caption style previews', () => {
  it('has at least four styles, and the shipped CJK font is there', () => {
    expect(CAPTIONS.length).toBeGreaterThanOrEqual(4);
    expect(new Set(CAPTIONS.map((c) => c.captionId)).size).toBe(CAPTIONS.length);
    expect(captionFontsDir()).toMatch(/noto-sans-sc/);
  });

  for (const { captionId } of CAPTIONS) {
    it(`renders ${captionId} with visible text in English and Chinese`, async () => {
      for (const language of ['en', 'zh'] as const) {
        const ink = await inkPixels(await captionPreview(captionId, join(dir, `${captionId}-${language}.png`), { language }));
        const share = ink.reduce((sum, v) => sum + v, 0) / ink.length;
        expect(share).toBeGreaterThan(0.002);
        expect(share).toBeLessThan(0.2);
      }
    });
  }

  it('draws real Chinese glyphs, not missing-glyph boxes: different characters give different pictures', async () => {
    const first = await inkPixels(await captionPreview('classic', join(dir, 'zh-a.png'), { text: '保温杯好', language: 'zh' }));
    const second = await inkPixels(await captionPreview('classic', join(dir, 'zh-b.png'), { text: '你我他们', language: 'zh' }));
    const differing = first.reduce((sum, v, i) => sum + (v !== second[i] ? 1 : 0), 0);
    const inked = first.reduce((sum, v) => sum + v, 0);
    // Four boxes of the same size ink the same pixels (a share near 0); these glyphs differ in about a quarter.
    expect(differing / inked).toBeGreaterThan(0.1);
  });
});

describe('where captions stand', () => {
  const SIZES = { '9:16': [1080, 1920], '1:1': [1080, 1080], '16:9': [1920, 1080] } as const;
  const TEXT = {
    en: 'Double walls keep your drinks ice cold for a whole day, and the lid never leaks in your bag.',
    zh: '双层真空保冷一整天，杯盖密封不漏水，放进包里也放心。',
  };

  /** The box (pixels) a frame's captions ink, rendered over flat grey by libass as the renderer burns them. */
  async function inkedBox(ass: string, width: number, height: number, name: string) {
    const file = join(dir, `${name}.ass`);
    await writeFile(file, ass);
    const png = join(dir, `${name}.png`);
    await runTool(locateTools().ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x808080:s=${width}x${height}:d=1`,
      '-vf',
      `ass=filename=${file}:fontsdir=${captionFontsDir()}`,
      '-frames:v',
      '1',
      png,
    ]);
    const ink = await inkPixels(png);
    let [left, top, right, bottom] = [width, height, -1, -1];
    for (let p = 0; p < ink.length; p++) {
      if (!ink[p]) continue;
      const [x, y] = [p % width, Math.floor(p / width)];
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
    expect(right, `${name} draws something`).toBeGreaterThan(left);
    return { left: left / width, top: top / height, right: (right + 1) / width, bottom: (bottom + 1) / height };
  }

  it('keeps every style’s two lines inside the platforms’ safe zone, in every shape (9:16: x 6–94 %, y 12–78 %)', async () => {
    for (const [ratio, [width, height]] of Object.entries(SIZES)) {
      const zone = safeZone(width, height);
      for (const { captionId } of CAPTIONS) {
        for (const language of ['en', 'zh'] as const) {
          const ass = buildAss({ segments: [{ text: TEXT[language], start: 0, end: 4 }], styleId: captionId, width, height, language });
          const box = await inkedBox(ass, width, height, `zone-${captionId}-${language}-${ratio.replace(':', 'x')}`);
          const where = `${captionId} ${language} ${ratio}: ${JSON.stringify(box)}`;
          expect(box.left, where).toBeGreaterThanOrEqual(zone.left - 0.002);
          expect(box.right, where).toBeLessThanOrEqual(zone.right + 0.002);
          expect(box.top, where).toBeGreaterThanOrEqual(zone.top - 0.002);
          expect(box.bottom, where).toBeLessThanOrEqual(zone.bottom + 0.002);
        }
      }
    }
    expect(safeZone(1080, 1920)).toEqual({ left: 0.06, right: 0.94, top: 0.12, bottom: 0.78 });
  }, 120_000);
});
