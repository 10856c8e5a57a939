import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { captionFrame } from '../src/captions/frame.js';
import { safeZone } from '../src/captions/safeZone.js';
import {
  breakLines,
  buildAss,
  CAPTIONS,
  type CaptionAvoid,
  captionFontsDir,
  captionPreview,
  spokenWords,
  textWidth,
  type WordTiming,
} from '../src/index.js';
import { type CaptionEvent, captionEvents, eventBox, seconds } from './captionEvents.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-captions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The events as clock text and plain lines (override tags left out). */
const dialogues = (ass: string) =>
  ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue:'))
    .map((line) => {
      const [, start, end, , , , , , , ...text] = line.slice('Dialogue: '.length).split(',');
      return {
        start,
        end,
        lines: text
          .join(',')
          .replace(/\{[^}]*\}/g, '')
          .split('\\N'),
      };
    });

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

/** Pixels of a frame rendered over flat grey that differ from the grey: the text the style drew. */
async function inkPixels(file: string): Promise<Uint8Array> {
  const { data } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data.map((v) => (Math.abs(v - 128) > 24 ? 1 : 0));
}

const SIZES = { '9:16': [1080, 1920], '1:1': [1080, 1080], '16:9': [1920, 1080] } as const;
const TEXT = {
  en: 'Double walls keep your drinks ice cold for a whole day, and the lid never leaks in your bag. Only $19.',
  zh: '双层真空保冷一整天，杯盖密封不漏水，放进包里也放心。现在只要99元。',
  pt: 'Paredes duplas mantêm sua bebida gelada o dia inteiro, e a tampa nunca vaza na bolsa. Só R$ 54,90.',
};

/** The rendered frame of `ass` at `at` seconds over grey, and the box (shares) of what it inked. */
async function inkedBox(ass: string, width: number, height: number, name: string, at = 0.5) {
  const png = await captionFrame({ ass, width, height, at, outFile: join(dir, `${name}.png`) });
  const ink = await inkPixels(png);
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let p = 0; p < ink.length; p++) {
    if (!ink[p]) continue;
    const [x, y] = [p % width, Math.floor(p / width)];
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
  }
  expect(right, `${name} draws something`).toBeGreaterThan(left);
  return { left: left / width, top: top / height, right: (right + 1) / width, bottom: (bottom + 1) / height, ink };
}

describe('caption style previews', () => {
  it('has at least six styles, the five first ids among them, and the shipped CJK font is there', () => {
    expect(CAPTIONS.length).toBeGreaterThanOrEqual(6);
    expect(new Set(CAPTIONS.map((c) => c.captionId)).size).toBe(CAPTIONS.length);
    // Projects keep the first catalogue's ids: each still names a style.
    for (const id of ['classic', 'boxed', 'pop', 'brand', 'headline']) expect(CAPTIONS.map((c) => c.captionId)).toContain(id);
    expect(captionFontsDir()).toMatch(/noto-sans-sc/);
  });

  it('draws each style’s thumbnail over the sample product shot, 4:3, not flat', async () => {
    for (const { captionId } of CAPTIONS) {
      const file = await captionPreview(captionId, join(dir, `thumb-${captionId}.png`), { language: 'pt' });
      const { width, height } = await sharp(file).metadata();
      expect(width / (height as number)).toBeCloseTo(4 / 3, 1);
      const { channels } = await sharp(file).stats();
      // A photo-like shot and the caption on it: far from one flat colour.
      expect(Math.max(...channels.map((c) => c.stdev))).toBeGreaterThan(20);
    }
  });

  it('draws real Chinese glyphs, not missing-glyph boxes: different characters give different pictures', async () => {
    const frame = async (text: string, name: string) =>
      inkPixels(
        await captionFrame({
          ass: buildAss({ segments: [{ text, start: 0, end: 2 }], styleId: 'classic', width: 540, height: 960, language: 'zh' }),
          width: 540,
          height: 960,
          at: 1,
          outFile: join(dir, name),
        }),
      );
    const first = await frame('保温杯好', 'zh-a.png');
    const second = await frame('你我他们', 'zh-b.png');
    const differing = first.reduce((sum, v, i) => sum + (v !== second[i] ? 1 : 0), 0);
    const inked = first.reduce((sum, v) => sum + v, 0);
    // Four boxes of the same size ink the same pixels (a share near 0); these glyphs differ in about a quarter.
    expect(differing / inked).toBeGreaterThan(0.1);
  });
});

describe('where captions stand', () => {
  it('keeps every event of every style inside the safe zone, two lines at most, in every shape and language', () => {
    for (const [ratio, [width, height]] of Object.entries(SIZES)) {
      const zone = safeZone(width, height);
      for (const { captionId } of CAPTIONS) {
        for (const language of ['en', 'zh', 'pt'] as const) {
          const ass = buildAss({
            segments: [{ text: TEXT[language], start: 0, end: 7 }],
            styleId: captionId,
            width,
            height,
            language,
            keyWords: ['walls', '真空', 'Paredes'],
          });
          const events = captionEvents(ass);
          expect(events.length).toBeGreaterThan(0);
          for (const event of events) {
            const box = eventBox(event, captionId);
            const where = `${captionId} ${language} ${ratio} ${event.text.join(' / ')}: ${JSON.stringify(box)}`;
            expect(event.lines.length, where).toBeLessThanOrEqual(2);
            expect(box.left / width, where).toBeGreaterThanOrEqual(zone.left);
            expect(box.right / width, where).toBeLessThanOrEqual(zone.right);
            expect(box.top / height, where).toBeGreaterThanOrEqual(zone.top - 0.001);
            expect(box.bottom / height, where).toBeLessThanOrEqual(zone.bottom + 0.001);
          }
        }
      }
    }
    expect(safeZone(1080, 1920)).toEqual({ left: 0.06, right: 0.94, top: 0.12, bottom: 0.78 });
  });

  it('has libass ink only inside the safe zone, for every style in every shape (9:16: x 6–94 %, y 12–78 %)', async () => {
    for (const [ratio, [width, height]] of Object.entries(SIZES)) {
      const zone = safeZone(width, height);
      for (const { captionId } of CAPTIONS) {
        for (const language of ['en', 'zh'] as const) {
          const ass = buildAss({
            segments: [{ text: TEXT[language], start: 0, end: 4 }],
            styleId: captionId,
            width,
            height,
            language,
            keyWords: ['Double', '双层'],
          });
          // Early on, the first words (a key word's pop at its peak) are on screen.
          const box = await inkedBox(ass, width, height, `zone-${captionId}-${language}-${ratio.replace(':', 'x')}`, 0.12);
          const where = `${captionId} ${language} ${ratio}: ${JSON.stringify({ ...box, ink: undefined })}`;
          expect(box.left, where).toBeGreaterThanOrEqual(zone.left - 0.002);
          expect(box.right, where).toBeLessThanOrEqual(zone.right + 0.002);
          expect(box.top, where).toBeGreaterThanOrEqual(zone.top - 0.002);
          expect(box.bottom, where).toBeLessThanOrEqual(zone.bottom + 0.002);
        }
      }
    }
  }, 180_000);
});

/** Words said with small pauses between, as an engine times them. */
function engineWords(text: string, start: number, step: number): WordTiming[] {
  return spokenWords(text).map((word, i) => ({
    word,
    start: +(start + i * step).toFixed(2),
    end: +(start + i * step + step - 0.06).toFixed(2),
  }));
}

const litIn = (event: CaptionEvent, accent: string) =>
  event.lines
    .flat()
    .filter((r) => r.colour === accent)
    .map((r) => r.text.trim())
    .filter(Boolean);

describe('word-timed captions', () => {
  const text = 'Meet HydroPeak, the bottle that keeps drinks cold all day for only $19.';
  const words = engineWords(text, 1, 0.4);
  const end = (words.at(-1) as WordTiming).end + 0.2;
  const YELLOW = '&H4DE1FF&';

  it('lights each word in the karaoke style exactly while it is said, the line shown around it', () => {
    const events = captionEvents(
      buildAss({ segments: [{ text, start: 1, end, words }], styleId: 'karaoke', width: 1080, height: 1920, language: 'en' }),
    );
    for (const word of words) {
      const lit = events.filter((e) => litIn(e, YELLOW).includes(word.word));
      expect(lit, word.word).toHaveLength(1);
      expect((lit[0] as CaptionEvent).start).toBeCloseTo(word.start, 2);
      expect((lit[0] as CaptionEvent).end).toBeCloseTo(word.end, 2);
      // The rest of its line is on screen with it, unlit.
      expect((lit[0] as CaptionEvent).text.join(' ')).toContain(word.word);
    }
    // In the pauses nothing is lit, and the events tile the segment.
    expect(events.filter((e) => litIn(e, YELLOW).length === 0).length).toBeGreaterThan(0);
    expect(events[0]?.start).toBe(1);
    expect(events.at(-1)?.end).toBeCloseTo(end, 2);
    events.slice(1).forEach((e, i) => {
      expect(e.start).toBeCloseTo((events[i] as CaptionEvent).end, 2);
    });
  });

  it('spreads the words over the segment when the engine gave no timings', () => {
    const events = captionEvents(
      buildAss({ segments: [{ text, start: 0, end: 5 }], styleId: 'karaoke', width: 1080, height: 1920, language: 'en' }),
    );
    const litOrder = events.flatMap((e) => litIn(e, YELLOW));
    expect(litOrder).toEqual(spokenWords(text));
  });

  it('pops in groups of two to four words, each at its first word, with a scale and fade', () => {
    const events = captionEvents(
      buildAss({ segments: [{ text, start: 1, end, words }], styleId: 'pop', width: 1080, height: 1920, language: 'en' }),
    );
    const ass = buildAss({ segments: [{ text, start: 1, end, words }], styleId: 'pop', width: 1080, height: 1920, language: 'en' });
    expect(ass).toMatch(/\\fad\(\d+,0\)\\fscx70\\fscy70\\t\(0,\d+,\\fscx100\\fscy100\)/);
    const groups = events.map((e) => spokenWords(e.text.join(' ')));
    expect(groups.flat()).toEqual(spokenWords(text));
    for (const group of groups) expect(group.length).toBeLessThanOrEqual(4);
    expect(groups.filter((g) => g.length >= 2).length).toBeGreaterThanOrEqual(groups.length - 1);
    let n = 0;
    for (const [i, group] of groups.entries()) {
      expect(events[i]?.start, group.join(' ')).toBeCloseTo(i === 0 ? 1 : (words[n] as WordTiming).start, 2);
      n += group.length;
    }
  });

  it('shows one word at a time in the one-word style, in capitals, shrunk to fit when long', () => {
    const long = 'Impermeabilidade garantida.';
    const events = captionEvents(
      buildAss({ segments: [{ text: long, start: 0, end: 2 }], styleId: 'one-word', width: 1080, height: 1920, language: 'pt' }),
    );
    expect(events.map((e) => e.text.join(''))).toEqual(['IMPERMEABILIDADE', 'GARANTIDA.']);
    expect(events[0]?.size).toBeLessThan(events[1]?.size as number);
  });

  it('sets the key words (the product’s name, the price, figures) larger in the accent colour, popping when said', () => {
    const ass = buildAss({
      segments: [{ text, start: 1, end, words }],
      styleId: 'keywords',
      width: 1080,
      height: 1920,
      language: 'en',
      keyWords: ['HydroPeak'],
    });
    const keyed = captionEvents(ass).flatMap((e) => litIn(e, '&H74DB1A&'));
    expect(keyed).toEqual(['HydroPeak,', '$19.']);
    // The pop starts as the word is said: HydroPeak is the second word, 0.4 s into its caption.
    expect(ass).toMatch(/\\t\(400,520,\\fscx140\\fscy140\)[^}]*\}HydroPeak,/);
  });

  it('groups and lights Chinese by whole words, with no spaces between them', () => {
    const zh = '冬季保暖加厚外套，防风防水，轻松出行。现在只要99元。';
    const said = spokenWords(zh);
    for (const styleId of ['karaoke', 'pop', 'one-word', 'keywords', 'classic']) {
      const events = captionEvents(
        buildAss({ segments: [{ text: zh, start: 0, end: 6 }], styleId, width: 1080, height: 1920, language: 'zh', keyWords: ['保暖'] }),
      );
      for (const event of events) {
        for (const line of event.text) {
          expect(line, styleId).not.toMatch(/\s/);
          // A line is whole words: it is the concatenation of a run of the words said.
          const start = said.findIndex((_, i) => said.slice(i).join('').startsWith(line));
          expect(start, `${styleId}: ${line}`).toBeGreaterThanOrEqual(0);
          let joined = '';
          for (let i = start; joined.length < line.length; i++) joined += said[i];
          expect(joined, `${styleId}: ${line}`).toBe(line);
        }
        for (const lit of litIn(event, '&H4DE1FF&')) expect(said, styleId).toContain(lit);
      }
    }
    expect(said).toContain('冬季');
    // A one-character word of a Chinese key word is a key word too (杯 of 极光杯).
    const keyed = captionEvents(
      buildAss({
        segments: [{ text: '极光杯，保冷一整天。', start: 0, end: 3 }],
        styleId: 'keywords',
        width: 1080,
        height: 1920,
        language: 'zh',
        keyWords: ['极光杯'],
      }),
    ).flatMap((e) => litIn(e, '&H74DB1A&'));
    expect(keyed.join('')).toBe('极光杯，');
  });
});

describe('captions off the product', () => {
  const text = 'Meet HydroPeak, the bottle that keeps drinks cold all day. Only $19 today.';
  /** Six seconds of the line in a style, over a `width`×`height` frame, keeping off `avoid`. */
  const captionsOver = (captionId: string, width: number, height: number, avoid: CaptionAvoid[]) =>
    buildAss({ segments: [{ text, start: 0, end: 6 }], styleId: captionId, width, height, language: 'en', avoid });

  it('never covers an avoid box: below the product when there is room, above it when it reaches the lower band', async () => {
    const cases = [
      // A product in the middle of the frame: the middle styles go below it, the bottom ones stay.
      { box: { x: 0.25, y: 0.3, w: 0.5, h: 0.3 }, side: 'below' },
      // A product standing low, into the captions' band: every style goes above it.
      { box: { x: 0.2, y: 0.45, w: 0.6, h: 0.45 }, side: 'above' },
    ] as const;
    for (const [ratio, [width, height]] of Object.entries(SIZES)) {
      const zone = safeZone(width, height);
      for (const { box, side } of cases) {
        for (const { captionId } of CAPTIONS) {
          const ass = captionsOver(captionId, width, height, [{ start: 1, end: 4, box }]);
          for (const event of captionEvents(ass).filter((e) => e.start < 4 && e.end > 1)) {
            const ink = eventBox(event, captionId);
            const where = `${captionId} ${ratio} ${side} ${event.text.join(' / ')}`;
            const apart =
              ink.right <= box.x * width ||
              ink.left >= (box.x + box.w) * width ||
              ink.bottom <= box.y * height ||
              ink.top >= (box.y + box.h) * height;
            expect(apart, where).toBe(true);
            expect(ink.top / height, where).toBeGreaterThanOrEqual(zone.top - 0.001);
            expect(ink.bottom / height, where).toBeLessThanOrEqual(zone.bottom + 0.001);
            if (side === 'above' && ratio === '9:16') expect(ink.bottom / height, where).toBeLessThanOrEqual(box.y);
          }
        }
      }
    }
  });

  it('keeps off a card even where the product fills the frame: over the product then, never over the card', () => {
    // A product filling the frame leaves no room; a card stands in the upper band, where the top styles sit.
    const product = { x: 0, y: 0, w: 1, h: 1 };
    const card = { x: 0.07, y: 0.13, w: 0.6, h: 0.12 };
    const [width, height] = SIZES['9:16'];
    for (const { captionId } of CAPTIONS) {
      const ass = captionsOver(captionId, width, height, [
        { start: 0, end: 6, box: product },
        { start: 0, end: 6, box: card, firm: true },
      ]);
      for (const event of captionEvents(ass)) {
        const ink = eventBox(event, captionId);
        const apart =
          ink.right <= card.x * width ||
          ink.left >= (card.x + card.w) * width ||
          ink.bottom <= card.y * height ||
          ink.top >= (card.y + card.h) * height;
        expect(apart, `${captionId} ${event.text.join(' / ')}`).toBe(true);
      }
    }
  });

  it('finds the room between a card above and a face below (a split screen) rather than covering either', () => {
    // A feature card high up and the presenter's face on the lower half: only the band between them is free.
    const card = { x: 0.06, y: 0.13, w: 0.88, h: 0.09 };
    const face = { x: 0.3, y: 0.56, w: 0.4, h: 0.3 };
    const [width, height] = SIZES['9:16'];
    for (const { captionId } of CAPTIONS) {
      const ass = captionsOver(captionId, width, height, [
        { start: 0, end: 6, box: card, firm: true },
        { start: 0, end: 6, box: face, firm: true },
      ]);
      for (const event of captionEvents(ass)) {
        const ink = eventBox(event, captionId);
        const where = `${captionId} ${event.text.join(' / ')}`;
        expect(ink.top / height, where).toBeGreaterThanOrEqual(card.y + card.h);
        expect(ink.bottom / height, where).toBeLessThanOrEqual(face.y);
      }
    }
  });

  it('leaves the product’s box without a pixel of caption in the rendered frame', async () => {
    const box = { x: 0.2, y: 0.45, w: 0.6, h: 0.45 };
    for (const { captionId } of CAPTIONS) {
      const ass = buildAss({
        segments: [{ text, start: 0, end: 6 }],
        styleId: captionId,
        width: 540,
        height: 960,
        language: 'en',
        avoid: [{ start: 0, end: 6, box }],
      });
      const { ink } = await inkedBox(ass, 540, 960, `avoid-${captionId}`, 0.6);
      let inside = 0;
      for (let y = Math.floor(box.y * 960); y < (box.y + box.h) * 960; y++) {
        for (let x = Math.floor(box.x * 540); x < (box.x + box.w) * 540; x++) inside += ink[y * 540 + x] as number;
      }
      expect(inside, captionId).toBe(0);
    }
  }, 60_000);
});
