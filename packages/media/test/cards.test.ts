/**
 * The ad cards (decision "Ad cards"), checked on real frames: the cards' ASS burnt in by ffmpeg's libass with the
 * cards' fonts folder, then read back with tesseract (what a viewer reads) or scanned pixel by pixel (where the
 * cards are). The end card's picture is drawn by sharp from a real still and a real transparent logo.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type BrandFontFileId, brandFont } from '../src/brand/fonts.js';
import { buildAss } from '../src/captions/ass.js';
import { CAPTIONS } from '../src/captions/styles.js';
import { drawEndCard } from '../src/render/endCard.js';
import { filterValue } from '../src/render/filters.js';
import type { AspectRatio } from '../src/render/timeline.js';
import { runTool } from '../src/run.js';
import type { Language } from '../src/script/language.js';
import { discountPercent, formatPrice } from '../src/script/price.js';
import {
  type AdFacts,
  type BrandLook,
  buildCards,
  buildCardsAss,
  cardFace,
  cardFontsDir,
  endCardArea,
  inkOn,
  mergeAss,
  openingCardEnd,
} from '../src/templates/cards.js';
import { fitText, measure, titleOf } from '../src/templates/cardText.js';
import { TEMPLATE_IDS, TEMPLATES, type TemplateId } from '../src/templates/catalogue.js';
import { faceMetrics } from '../src/templates/fontMetrics.js';
import { locateTools } from '../src/tools.js';
import { CARD_BRAND, cardsTimeline, HOODIE } from './cardFixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-cards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BRAND: BrandLook = CARD_BRAND;
const SIZES: Record<AspectRatio, [number, number]> = { '9:16': [1080, 1920], '1:1': [1080, 1080], '16:9': [1920, 1080] };

const AT = { hook: 1.0, offer: 3.6, feature: 6.0, end: 12.0 };

const FACTS: Record<Language, AdFacts> = {
  en: HOODIE,
  zh: {
    name: '瑜伽伸展带四件套',
    brand: 'Luma',
    offer: { price: '159.00', currency: 'CNY' },
    features: ['一套搞定日常拉伸', '轻便易收纳'],
    opening: '拉伸总是不到位？',
    callToAction: '立即购买',
  },
  pt: {
    name: 'Camiseta Básica Masculina 100% Algodão',
    brand: 'Praia Norte',
    offer: { price: '59.90', currency: 'BRL' },
    features: ['Algodão penteado macio', 'Não desbota nem encolhe na lavagem'],
    opening: 'Cansado de camiseta que encolhe?',
    callToAction: 'Compre agora',
  },
};

/** A photo-like picture of the frame's size: a gradient under a dark and a light block, as a JPEG. */
async function picture(width: number, height: number, name: string): Promise<string> {
  const file = join(dir, name);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inBlock = x > width * 0.3 && x < width * 0.7 && y > height * 0.3 && y < height * 0.7;
      pixels[i] = inBlock ? 60 : 120 + (x * 80) / width;
      pixels[i + 1] = inBlock ? 70 : 140 + (y * 60) / height;
      pixels[i + 2] = inBlock ? 90 : 160;
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(file);
  return file;
}

/** The frame at `t` seconds of `ass` burnt over `background` by libass, as a PNG. */
async function burn(
  ass: string,
  background: string,
  t: number,
  size: [number, number],
  font: Parameters<typeof cardFontsDir>[0],
  name: string,
) {
  const assFile = join(dir, `${name}.ass`);
  const out = join(dir, `${name}.png`);
  await writeFile(assFile, ass);
  const [w, h] = size;
  await runTool(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-loop', '1', '-framerate', '25', '-i', background],
    '-vf',
    `scale=${w}:${h},setsar=1,setpts=PTS-STARTPTS+${t}/TB,ass=filename=${filterValue(assFile)}:fontsdir=${filterValue(cardFontsDir(font))}`,
    ...['-frames:v', '1', out],
  ]);
  return out;
}

const TESSERACT: Record<Language, string> = { en: 'eng', zh: 'chi_sim', pt: 'por' };

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What tesseract reads in `box` of the frame, from one colour channel (the blue one sees orange type on a light
 * card, the red one dark type on an orange button; tesseract takes the grey of both for the same grey).
 */
async function ocr(
  png: string,
  language: Language,
  options: { box?: Box; channel?: 'grey' | 'red' | 'blue'; line?: boolean; scale?: number; rotate?: number } = {},
): Promise<string> {
  const { box, channel = 'grey', line = false, scale = 1, rotate = 0 } = options;
  const out = png.replace(/\.png$/, `-${channel}-${box ? `${Math.round(box.x)}-${Math.round(box.y)}` : 'all'}.png`);
  let image = sharp(png);
  if (box) {
    const meta = await sharp(png).metadata();
    const left = Math.max(0, Math.round(box.x));
    const top = Math.max(0, Math.round(box.y));
    image = image.extract({
      left,
      top,
      width: Math.min((meta.width ?? 0) - left, Math.round(box.w)),
      height: Math.min((meta.height ?? 0) - top, Math.round(box.h)),
    });
  }
  image = channel === 'grey' ? image.greyscale() : image.extractChannel(channel);
  if (rotate) image = sharp(await image.png().toBuffer()).rotate(rotate, { background: '#000000' });
  // Tesseract reads letters some 20–40 px tall: big prices are scaled down, the small label up.
  if (scale !== 1)
    image = sharp(await image.png().toBuffer()).resize({ width: Math.round((box?.w ?? (await sharp(png).metadata()).width ?? 1) * scale) });
  await image.toFile(out);
  const text = await runTool('tesseract', [out, '-', '-l', TESSERACT[language], '--psm', line ? '7' : '6'], { timeoutMs: 60_000 });
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The box of the drawings (panels, buttons, badges) of one kind of card at the end of their moves, from the
 * document itself: `\pos` or the end of `\move`, the alignment, and the drawing's extent. The soft scrim under
 * bare type (layer 0) is no part of it: it is shade on the picture, kept in the cards' zone by the pixel test below.
 */
function drawnBox(ass: string, kind: string, grow = 0, tag = ''): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  const drawings = events(ass).filter((ev) => ev.name === kind && ev.layer > 0 && ev.text.includes('\\p1') && ev.text.includes(tag));
  for (const e of drawings) {
    const an = Number(/\\an(\d)/.exec(e.text)?.[1]);
    const pos = /\\pos\(([-\d.]+),([-\d.]+)\)/.exec(e.text) ?? /\\move\([-\d.]+,[-\d.]+,([-\d.]+),([-\d.]+)/.exec(e.text);
    const path =
      (e.text.split('{\\p1}')[1] ?? '')
        .split('{')[0]
        ?.match(/-?[\d.]+/g)
        ?.map(Number) ?? [];
    const w = Math.max(...path.filter((_, i) => i % 2 === 0));
    const h = Math.max(...path.filter((_, i) => i % 2 === 1));
    const [x, y] = [Number(pos?.[1]), Number(pos?.[2])];
    const left = an === 5 ? x - w / 2 : x;
    const top = an === 5 ? y - h / 2 : y;
    [x0, y0, x1, y1] = [Math.min(x0, left), Math.min(y0, top), Math.max(x1, left + w), Math.max(y1, top + h)];
  }
  return { x: x0 - grow, y: y0 - grow, w: x1 - x0 + 2 * grow, h: y1 - y0 + 2 * grow };
}

/** Inside a card's panel, clear of its rounded edge and soft shadow (tesseract takes those for an image). */
const inside = (b: Box, by = 0.08): Box => {
  const d = Math.min(b.w, b.h) * by;
  return { x: b.x + d, y: b.y + d, w: b.w - 2 * d, h: b.h - 2 * d };
};

/**
 * Inside the AI label's box (text on a box of its own), clear of its edges (tesseract reads those as strokes), from
 * its position in the document and its measured width.
 */
function labelBox(ass: string, [w, h]: [number, number], font: BrandFontFileId): Box {
  const label = events(ass).find((e) => e.name === 'ai-label');
  const [, x, y] = /\\pos\(([-\d.]+),([-\d.]+)\)/.exec(label?.text ?? '') ?? [];
  const em = 0.02 * Math.min(w, h);
  const text = label?.text.slice(label.text.lastIndexOf('}') + 1) ?? '';
  return {
    x: Number(x) - 0.3 * em,
    y: Number(y) - 0.3 * em,
    w: measure(text, em, { face: font, spacing: 0 }, 0.03) + 0.6 * em,
    h: 1.95 * em,
  };
}

/** The inner part of a pill-shaped button: its text, without the round ends tesseract reads as brackets. */
const insidePill = (b: Box): Box => ({ x: b.x + b.h * 0.45, y: b.y + b.h * 0.12, w: b.w - b.h * 0.9, h: b.h * 0.76 });

interface Event {
  layer: number;
  start: number;
  end: number;
  name: string;
  text: string;
}
const seconds = (clock: string) => {
  const [h, m, s] = clock.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};
function events(ass: string): Event[] {
  return ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue:'))
    .map((line) => {
      const [layer = '', start = '', end = '', , name = '', , , , , ...text] = line.slice('Dialogue: '.length).split(',');
      return { layer: Number(layer), start: seconds(start), end: seconds(end), name, text: text.join(',') };
    });
}
/** What a set of events says: the text after each one's tags, in order. */
const said = (list: Event[]) =>
  list
    .filter((e) => !e.text.includes('\\p1'))
    .map((e) => e.text.slice(e.text.lastIndexOf('}') + 1))
    .join(' ');

/** The document without the events of `kinds`. */
const without = (ass: string, kinds: string[]) =>
  ass
    .split('\n')
    .filter((line) => !kinds.some((kind) => line.startsWith('Dialogue:') && line.split(',')[4] === kind))
    .join('\n');

/** Rows and columns of `png` where any pixel differs from the flat `grey` it was drawn on. */
async function inked(png: string, grey: number) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [top, bottom, left, right] = [info.height, -1, info.width, -1];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (
        Math.max(Math.abs((data[i] as number) - grey), Math.abs((data[i + 1] as number) - grey), Math.abs((data[i + 2] as number) - grey)) >
        10
      ) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  return { top, bottom, left, right, width: info.width, height: info.height };
}

function cards(
  templateId: TemplateId,
  aspect: AspectRatio,
  language: Language,
  options: { brand?: BrandLook; facts?: Partial<AdFacts>; scale?: number } = {},
) {
  const [w, h] = SIZES[aspect].map((side) => Math.round((side * (options.scale ?? 1)) / 2) * 2) as [number, number];
  const template = TEMPLATES[templateId];
  const brand = options.brand ?? BRAND;
  const { ass, areas } = buildCards({
    timeline: cardsTimeline(templateId, aspect),
    template,
    facts: { ...FACTS[language], ...options.facts },
    brand,
    width: w,
    height: h,
    language,
    aiLabel: true,
  });
  return { ass, areas, size: [w, h] as [number, number], font: cardFace(template, brand) };
}

describe('ad cards on real frames (OCR)', () => {
  it('the hook names the product in its first 1.5 s, then leaves', async () => {
    const { ass, size, font } = cards('clean-studio', '9:16', 'en');
    const bg = await picture(...size, 'hook-bg.jpg');
    expect(
      await ocr(await burn(ass, bg, AT.hook, size, font, 'hook-1'), 'en', { box: inside(drawnBox(ass, 'hook')), scale: 0.5 }),
    ).toContain('Hero Hoodie');
    expect(await ocr(await burn(ass, bg, 1.7, size, font, 'hook-2'), 'en', { box: inside(drawnBox(ass, 'hook')), scale: 0.5 })).toBe('');
  });

  it('the offer card shows the price for the language and the struck list price; the Sale template adds the discount', async () => {
    const { ass, size, font } = cards('clean-studio', '9:16', 'en');
    const bg = await picture(...size, 'offer-bg.jpg');
    expect(
      await ocr(await burn(ass, bg, AT.offer, size, font, 'offer'), 'en', {
        box: inside(drawnBox(ass, 'offer')),
        channel: 'blue',
        scale: 0.5,
      }),
    ).toContain('$72.00 $54.00');
    const struck = events(ass).find((e) => e.name === 'offer' && e.text.endsWith('$72.00'));
    expect(struck?.text).toContain('\\s1');
    const sale = cards('sale', '9:16', 'en');
    const saleFrame = await burn(sale.ass, bg, AT.offer, sale.size, sale.font, 'offer-sale');
    expect(await ocr(saleFrame, 'en', { box: inside(drawnBox(sale.ass, 'offer', 0, '\\frz-2')), scale: 0.5 })).toContain('$54.00');
    // The badge is tilted 12° (anticlockwise): turned back for tesseract.
    expect(
      await ocr(saleFrame, 'en', { box: inside(drawnBox(sale.ass, 'offer', 0, '\\frz12'), 0.15), channel: 'blue', rotate: 12, line: true }),
    ).toBe('-25%');
  });

  it('the end card over its darkened still shows the call to action, the name and the price', async () => {
    const [w, h] = SIZES['9:16'];
    const still = await picture(Math.round(w * 1.12), Math.round(h * 1.12), 'end-still.jpg');
    const end = join(dir, 'end-card.jpg');
    await drawEndCard(still, end, {
      width: Math.round(w * 1.12),
      height: Math.round(h * 1.12),
      brand: BRAND,
      template: TEMPLATES['clean-studio'],
    });
    const { ass, size, font } = cards('clean-studio', '9:16', 'en');
    const frame = await burn(ass, end, AT.end, size, font, 'end');
    expect(await ocr(frame, 'en', { box: insidePill(drawnBox(ass, 'end')), channel: 'red', line: true })).toBe('Shop now');
    const text = await ocr(frame, 'en', { scale: 0.5 });
    expect(text).toContain('Hero Hoodie');
    expect(text).toContain('$54.00');
  });

  it('Chinese cards render: the price in yuan, the feature line, the call to action and the AI label', async () => {
    const { ass, size, font } = cards('feature-list', '9:16', 'zh');
    const bg = await picture(...size, 'zh-bg.jpg');
    const offer = await burn(ass, bg, AT.offer, size, font, 'zh-offer');
    // Tesseract reads the yen sign as a Y, and the label's I as an l.
    expect(await ocr(offer, 'zh', { box: inside(drawnBox(ass, 'offer')), channel: 'blue', scale: 0.5 })).toMatch(/[¥Y] ?159\.00/);
    expect(await ocr(offer, 'zh', { box: labelBox(ass, size, font), line: true, scale: 3 })).toMatch(/^A[Il] ?生成$/);
    const feature = await burn(ass, bg, AT.feature, size, font, 'zh-feature');
    expect((await ocr(feature, 'zh', { box: inside(drawnBox(ass, 'feature')) })).replace(/\s/g, '')).toContain('一套搞定日常拉伸');
    const end = await burn(ass, bg, AT.end, size, font, 'zh-end');
    expect((await ocr(end, 'zh', { box: insidePill(drawnBox(ass, 'end')), channel: 'red', line: true })).replace(/\s/g, '')).toBe(
      '立即购买',
    );
  });

  it('Portuguese cards render at 540p: the price in reais, the call to action and the AI label', async () => {
    const { ass, size, font } = cards('bold-ugc', '9:16', 'pt', { scale: 0.5 });
    const bg = await picture(...size, 'pt-bg.jpg');
    const offer = await burn(ass, bg, AT.offer, size, font, 'pt-offer');
    expect(await ocr(offer, 'pt', { box: inside(drawnBox(ass, 'offer')) })).toMatch(/R\$ ?59,90/);
    expect(await ocr(offer, 'pt', { box: labelBox(ass, size, font), line: true, scale: 3 })).toMatch(/^Gerado por /);
    const end = await burn(ass, bg, AT.end, size, font, 'pt-end');
    expect(await ocr(end, 'pt', { box: insidePill(drawnBox(ass, 'end')), channel: 'red', line: true })).toBe('COMPRE AGORA');
  });
});

describe('where and when the cards are', () => {
  it('puts each card in its scene: the hook in its first 1.5 s, features on feature scenes in order, offer and end on theirs, before each hand-over', () => {
    for (const id of TEMPLATE_IDS) {
      const timeline = cardsTimeline(id, '9:16');
      const ass = buildCardsAss({
        timeline,
        template: TEMPLATES[id],
        facts: FACTS.en,
        brand: BRAND,
        width: 1080,
        height: 1920,
        language: 'en',
        aiLabel: true,
      });
      const all = events(ass);
      const within = (kind: string, from: number, to: number) => {
        const found = all.filter((e) => e.name === kind);
        for (const e of found) {
          expect(e.start, `${id} ${kind}`).toBeGreaterThanOrEqual(from);
          expect(e.end, `${id} ${kind}`).toBeLessThanOrEqual(to + 1e-9);
        }
        return found;
      };
      expect(within('hook', 0, 1.5).length, id).toBeGreaterThan(0);
      expect(within('offer', 2.4, 4.8 - 0.4).length, id).toBeGreaterThan(0);
      expect(within('end', 9.6, 12.5).length, id).toBeGreaterThan(0);
      const features = all.filter((e) => e.name === 'feature');
      if (TEMPLATES[id].featureLines) {
        expect(said(features.filter((e) => e.start >= 4.8 && e.end <= 6.8)), id).toBe('Slanted outsize front pockets');
        expect(said(features.filter((e) => e.start >= 7.2 && e.end <= 9.2)), id).toBe('Water-resistant coating');
        expect(
          features.every((e) => (e.start >= 4.8 && e.end <= 6.8) || (e.start >= 7.2 && e.end <= 9.2)),
          id,
        ).toBe(true);
      } else expect(features, id).toEqual([]);
      const label = all.filter((e) => e.name === 'ai-label');
      expect(label.map((e) => [e.start, e.end, e.text.endsWith('AI-generated')])).toEqual([[0, 12.5, true]]);
      const sale = all.filter((e) => e.name === 'sale');
      if (TEMPLATES[id].saleBadge) {
        expect(Math.min(...sale.map((e) => e.start))).toBe(2.4);
        expect(Math.max(...sale.map((e) => e.end))).toBe(12.5);
      } else expect(sale).toEqual([]);
    }
  });

  it('says where each card stands while it shows, so the captions keep off it: the hook, the offer and the end card', () => {
    for (const id of TEMPLATE_IDS) {
      const { ass, areas, size } = cards(id, '9:16', 'en');
      const [w, h] = size;
      for (const kind of ['hook', 'offer', 'end']) {
        const drawn = drawnBox(ass, kind);
        const at = events(ass).find((e) => e.name === kind)?.start ?? 0;
        // Bare cards (type alone, no panel) have no drawing to measure.
        if (!Number.isFinite(drawn.w)) continue;
        // What stands when the card appears covers it, its soft shadow (up to two hundredths of the frame below
        // it) aside: a card left out is one a caption may be set over.
        const shown = areas.filter((a) => a.start <= at + 0.5 && a.end > at);
        const shadow = 0.02 * h;
        expect(Math.min(...shown.map((a) => a.box.x * w)), `${id} ${kind}`).toBeLessThanOrEqual(drawn.x + 1);
        expect(Math.min(...shown.map((a) => a.box.y * h)), `${id} ${kind}`).toBeLessThanOrEqual(drawn.y + 1);
        expect(Math.max(...shown.map((a) => (a.box.x + a.box.w) * w)), `${id} ${kind}`).toBeGreaterThanOrEqual(drawn.x + drawn.w - shadow);
        expect(Math.max(...shown.map((a) => (a.box.y + a.box.h) * h)), `${id} ${kind}`).toBeGreaterThanOrEqual(drawn.y + drawn.h - shadow);
      }
      for (const area of areas) {
        expect(area.end).toBeGreaterThan(area.start);
        expect(area.box.x).toBeGreaterThanOrEqual(0);
        expect(area.box.x + area.box.w).toBeLessThanOrEqual(1);
      }
    }
  });

  it('draws no sale ticker or badge without a list price, no offer card without a price, no label when not asked', () => {
    const plain = { ...FACTS.en, offer: { price: '54.00', currency: 'USD' } };
    const sale = buildCardsAss({
      timeline: cardsTimeline('sale', '9:16'),
      template: TEMPLATES.sale,
      facts: plain,
      brand: BRAND,
      width: 1080,
      height: 1920,
      language: 'en',
      aiLabel: false,
    });
    expect(events(sale).filter((e) => e.name === 'sale')).toEqual([]);
    expect(events(sale).some((e) => e.text.includes('%'))).toBe(false);
    expect(events(sale).some((e) => e.name === 'offer' && e.text.endsWith('$54.00'))).toBe(true);
    expect(events(sale).filter((e) => e.name === 'ai-label')).toEqual([]);
    const noPrice = buildCardsAss({
      timeline: cardsTimeline('sale', '9:16'),
      template: TEMPLATES.sale,
      facts: { ...FACTS.en, offer: undefined },
      brand: BRAND,
      width: 1080,
      height: 1920,
      language: 'en',
      aiLabel: false,
    });
    expect(events(noPrice).filter((e) => e.name === 'offer')).toEqual([]);
    // The price hook falls back to the title.
    expect(said(events(noPrice).filter((e) => e.name === 'hook'))).toBe('LUMA HERO HOODIE');
  });

  it('moves the hook (a title, or the Sale template’s price) off the hook picture’s subject when a lower place is clearer: off a face, never over the captions', () => {
    /** The top of the hook's type (its highest \\pos or \\move start), as a share of the height. */
    const hookTop = (templateId: TemplateId, hookSubject?: { left: number; top: number; right: number; bottom: number; head: boolean }) => {
      const ass = buildCardsAss({
        timeline: cardsTimeline(templateId, '9:16'),
        template: TEMPLATES[templateId],
        facts: FACTS.en,
        brand: BRAND,
        width: 1080,
        height: 1920,
        language: 'en',
        aiLabel: false,
        hookSubject,
      });
      const ys = events(ass)
        .filter((e) => e.name === 'hook')
        .map((e) => Number(/\\(?:pos|move)\([\d.]+,([\d.]+)/.exec(e.text)?.[1]));
      expect(ys.length).toBeGreaterThan(0);
      return Math.min(...ys) / 1920;
    };
    // A person from head to shoes fills the frame's middle: the title leaves the face for the lower part.
    const person = { left: 0.25, top: 0.12, right: 0.75, bottom: 0.96, head: true };
    // A product standing low on its set leaves the top clear; a tall bottle, its cap in the title's way, has no
    // face to keep clear, and the lower place would hide its label: the title stays at the top.
    const product = { left: 0.3, top: 0.45, right: 0.7, bottom: 0.8, head: false };
    const bottle = { ...person, left: 0.38, right: 0.62, head: false };
    for (const templateId of ['bold-ugc', 'clean-studio', 'sale'] as const) {
      const alone = hookTop(templateId);
      expect(alone, templateId).toBeLessThan(0.3);
      expect(hookTop(templateId, product), templateId).toBeCloseTo(alone, 6);
      expect(hookTop(templateId, bottle), templateId).toBeCloseTo(alone, 6);
      const moved = hookTop(templateId, person);
      expect(moved, templateId).toBeGreaterThan(0.45);
      // Still above the captions' band (the layout's overCaptions, about 0.75 of a 9:16 frame).
      expect(moved, templateId).toBeLessThan(0.75);
    }
  });

  it('keeps every card out of the top 8 % and the bottom 20 %, and out of the captions and the side buttons, the end card included', async () => {
    const grey = 128;
    const flat = join(dir, 'flat.png');
    await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: grey, g: grey, b: grey } } })
      .png()
      .toFile(flat);
    const cases: [TemplateId, AspectRatio][] = [
      ...TEMPLATE_IDS.map((id) => [id, '9:16'] as [TemplateId, AspectRatio]),
      ['sale', '1:1'],
      ['feature-list', '1:1'],
      ['sale', '16:9'],
      ['problem-solution', '16:9'],
    ];
    const captionTops = new Map<AspectRatio, number>();
    for (const [id, aspect] of cases) {
      // Portuguese: the longest name, feature lines and call to action.
      const { ass, size, font } = cards(id, aspect, 'pt', {
        scale: 0.5,
        facts: { offer: { price: '59.90', currency: 'BRL', listPrice: '79.90' } },
      });
      const [w, h] = size;
      // Where the captions start: the highest of the bottom styles' two-line captions.
      let captionTop = captionTops.get(aspect) ?? h;
      if (!captionTops.has(aspect)) {
        for (const styleId of ['classic', 'boxed', 'brand']) {
          const captions = buildAss({
            segments: [{ text: 'Slanted outsize front pockets keep your style real and convenient', start: 0, end: 20 }],
            styleId,
            width: w,
            height: h,
            language: 'en',
          });
          captionTop = Math.min(
            captionTop,
            (await inked(await burn(captions, flat, 1, size, font, `captions-${styleId}-${aspect.replace(':', 'x')}`), grey)).top,
          );
        }
        captionTops.set(aspect, captionTop);
      }
      expect(captionTop).toBeLessThan(h * 0.85);
      const ticker = events(ass).some((e) => e.name === 'sale');
      for (const [role, t] of Object.entries(AT)) {
        const name = `safe-${id}-${aspect.replace(':', 'x')}-${role}`;
        const all = await inked(await burn(ass, flat, t, size, font, name), grey);
        expect(all.top, `${name} top`).toBeGreaterThanOrEqual(Math.floor(h * 0.08));
        expect(all.bottom, `${name} bottom`).toBeLessThan(Math.ceil(h * 0.8));
        // Over speech, the end card too (the call to action is captioned while it shows): clear of the captions.
        // The sale ticker spans the width by design, the rest keep left of the side buttons.
        expect(all.bottom, `${name} over captions`).toBeLessThan(captionTop);
        const cardsOnly = ticker ? await inked(await burn(without(ass, ['sale']), flat, t, size, font, `${name}-cards`), grey) : all;
        expect(cardsOnly.right, `${name} right`).toBeLessThanOrEqual(Math.ceil(w * 0.88));
      }
    }
  });
});

describe('type', () => {
  it('measures lines as libass sets them, so panels fit their text', async () => {
    const flat = join(dir, 'black.png');
    await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png()
      .toFile(flat);
    for (const face of ['noto-sans', 'noto-sans-black', 'noto-serif'] as const) {
      const em = 60;
      const text = 'Hero Hoodie 牛仔裤 R$ 59,90';
      const family = { 'noto-sans': 'Noto Sans SC', 'noto-sans-black': 'Noto Sans SC Black', 'noto-serif': 'Noto Serif SC' }[face];
      const size = em / faceMetrics(brandFont(face).path).emPerSize;
      const ass = `[Script Info]\nScriptType: v4.00+\nPlayResX: 1600\nPlayResY: 200\nWrapStyle: 2\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\nStyle: A,${family},${size},&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:09.00,A,,0,0,0,,{\\pos(20,40)}${text}\n`;
      const box = await inked(await burn(ass, flat, 0, [1600, 200], face, `measure-${face}`), 0);
      const real = box.right - box.left + 1;
      const estimate = measure(text, em, { face, spacing: 0 });
      expect(real / estimate, face).toBeGreaterThan(0.95);
      expect(real / estimate, face).toBeLessThan(1.01);
    }
  });

  it('sets the black face when the brand asks for it (libass finds it in the cards fonts folder)', async () => {
    const white = join(dir, 'white.png');
    await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .png()
      .toFile(white);
    const ink = async (font: 'noto-sans' | 'noto-sans-black') => {
      const { ass, size } = cards('clean-studio', '9:16', 'en', { brand: { ...BRAND, font }, scale: 0.5 });
      const png = await burn(without(ass, ['ai-label']), white, AT.hook, size, font, `face-${font}`);
      const { data } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
      // The title is near-black type on a light card on white: its dark pixels are the letters' ink.
      return data.filter((v) => v < 80).length;
    };
    const bold = await ink('noto-sans');
    const black = await ink('noto-sans-black');
    expect(bold).toBeGreaterThan(0);
    expect(black).toBeGreaterThan(bold * 1.08);
    const files = readdirSync(cardFontsDir('noto-serif'));
    expect(files.some((f) => f.startsWith('NotoSerifSC'))).toBe(true);
    expect(files.some((f) => f.startsWith('NotoSansSC_700'))).toBe(true);
  });

  it('shortens names sensibly and fits them in two lines', () => {
    const type = { face: 'noto-sans' as const, spacing: 0 };
    expect(titleOf('Acme Bottle - 1L Stainless Steel, BPA free')).toBe('Acme Bottle');
    const pt = fitText('Camiseta Básica Masculina 100% Algodão', { em: 120, maxWidth: 900, maxLines: 2, type, cutFirst: true });
    expect(pt.lines.join(' ')).toMatch(/^Camiseta Básica( Masculina)?$/);
    expect(pt.em).toBe(120);
    const zh = fitText('女士高腰破洞修身牛仔裤', { em: 100, maxWidth: 800, maxLines: 2, type });
    expect(zh.lines).toHaveLength(2);
    expect(zh.lines.join('')).toBe('女士高腰破洞修身牛仔裤');
    for (const line of [...pt.lines, ...zh.lines])
      expect(measure(line, pt.lines.includes(line) ? pt.em : zh.em, type)).toBeLessThanOrEqual(900);
  });

  it('leaves the captions of every style the band below the end card', async () => {
    const grey = 128;
    const flat = join(dir, 'flat-end.png');
    await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: grey, g: grey, b: grey } } })
      .png()
      .toFile(flat);
    const [w, h] = SIZES['9:16'];
    const area = endCardArea(w, h);
    for (const { captionId } of CAPTIONS) {
      const ass = buildAss({
        segments: [{ text: 'Tap the link and get yours today.', start: 0, end: 4 }],
        styleId: captionId,
        width: w,
        height: h,
        language: 'en',
        avoid: [{ start: 0, end: 4, box: area }],
      });
      const ink = await inked(await burn(ass, flat, 2, [w, h], cardFace(TEMPLATES['clean-studio'], BRAND), `end-band-${captionId}`), grey);
      expect(ink.top, captionId).toBeGreaterThanOrEqual(Math.floor((area.y + area.h) * h));
      expect(ink.bottom, captionId).toBeLessThanOrEqual(Math.ceil(0.78 * h));
    }
  });

  it('says until when the question hook shows the opening line, so the captions leave it to the card', () => {
    expect(openingCardEnd(cardsTimeline('problem-solution', '9:16'), TEMPLATES['problem-solution'])).toBe(1.5);
    for (const id of TEMPLATE_IDS.filter((t) => TEMPLATES[t].hook !== 'question')) {
      expect(openingCardEnd(cardsTimeline(id, '9:16'), TEMPLATES[id])).toBeUndefined();
    }
  });

  it('draws what it has: no button without a call to action, no title without a name', () => {
    for (const id of TEMPLATE_IDS) {
      const ass = buildCardsAss({
        timeline: cardsTimeline(id, '9:16'),
        template: TEMPLATES[id],
        facts: { name: ' ', features: [], callToAction: '' },
        brand: BRAND,
        width: 1080,
        height: 1920,
        language: 'en',
        aiLabel: false,
      });
      expect(events(ass), id).toEqual([]);
    }
  });

  it('keeps page text from restyling a card: braces and backslashes are made harmless', () => {
    const ass = buildCardsAss({
      timeline: cardsTimeline('clean-studio', '9:16'),
      template: TEMPLATES['clean-studio'],
      facts: { ...FACTS.en, name: 'Bottle{\\an8\\fs200}\\N2' },
      brand: BRAND,
      width: 1080,
      height: 1920,
      language: 'en',
      aiLabel: false,
    });
    const hook = events(ass)
      .filter((e) => e.name === 'hook')
      .map((e) => e.text.slice(e.text.lastIndexOf('}') + 1));
    expect(hook).toContain('Bottle(/an8/fs200)/N2');
  });

  it('writes the button in black or white by its colour, and refuses a colour that is not #rrggbb', () => {
    expect(inkOn('#ff7a45')).toBe('#141414');
    expect(inkOn('#1a2b4c')).toBe('#ffffff');
    const ass = buildCardsAss({
      timeline: cardsTimeline('clean-studio', '9:16'),
      template: TEMPLATES['clean-studio'],
      facts: FACTS.en,
      brand: { ...BRAND, secondary: '#1a2b4c' },
      width: 1080,
      height: 1920,
      language: 'en',
      aiLabel: false,
    });
    expect(events(ass).find((e) => e.name === 'end' && e.text.endsWith('Shop now'))?.text).toContain('\\1c&HFFFFFF&');
    expect(() =>
      buildCardsAss({
        timeline: cardsTimeline('sale', '9:16'),
        template: TEMPLATES.sale,
        facts: FACTS.en,
        brand: { ...BRAND, primary: 'white' },
        width: 1080,
        height: 1920,
        language: 'en',
        aiLabel: false,
      }),
    ).toThrow(/#rrggbb/);
  });

  it('formats prices per language and rounds the discount to whole percent', () => {
    expect(formatPrice('54', 'USD', 'en')).toBe('$54.00');
    expect(formatPrice('259.00', 'CNY', 'zh')).toBe('¥259.00');
    expect(formatPrice('59.9', 'BRL', 'pt')).toBe('R$\u00a059,90');
    expect(discountPercent('54.00', '72.00')).toBe(25);
    expect(discountPercent('79.99', '100')).toBe(20);
    expect(discountPercent('54.00', undefined)).toBe(0);
    expect(() => formatPrice('54', 'dollars', 'en')).toThrow(/currency/);
    expect(() => formatPrice('free', 'USD', 'en')).toThrow(/price/);
  });
});

describe('mergeAss', () => {
  const captions = buildAss({
    segments: [{ text: 'Meet the Hero Hoodie.', start: 0, end: 2 }],
    styleId: 'classic',
    width: 1080,
    height: 1920,
    language: 'en',
  });
  const { ass } = cards('sale', '9:16', 'en');

  it('makes one document with the first header, every style and every event', () => {
    const merged = mergeAss(captions, ass);
    expect(merged.match(/^\[Script Info\]$/gm)).toHaveLength(1);
    expect(merged.match(/^Format: Name/gm)).toHaveLength(1);
    expect(merged.match(/^Style: /gm)).toHaveLength(4);
    expect(events(merged)).toHaveLength(events(captions).length + events(ass).length);
  });

  it('refuses documents for another frame or with a style named twice', () => {
    const square = cards('sale', '1:1', 'en').ass;
    expect(() => mergeAss(captions, square)).toThrow(/PlayResY/);
    expect(() => mergeAss(ass, ass)).toThrow(/CardText is defined twice/);
  });
});

describe('drawEndCard', () => {
  const [w, h] = [1210, 2150];
  const frame = { width: w / 1.12, height: h / 1.12 };

  it('darkens the picture toward the bottom and sets a transparent logo, fitted, near the top centre', async () => {
    const still = await picture(w, h, 'logo-still.jpg');
    const logo = join(dir, 'logo.png');
    // A red disc on a transparent 800×400 canvas.
    const disc = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><circle cx="400" cy="200" r="190" fill="#ff0000"/></svg>',
    );
    await sharp(disc).png().toFile(logo);
    const out = join(dir, 'end-logo.jpg');
    await drawEndCard(still, out, { width: w, height: h, brand: { ...BRAND, logo }, template: TEMPLATES['clean-studio'] });
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', w, h]);
    const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    const source = await sharp(still).raw().toBuffer();
    const at = (buf: Buffer, x: number, y: number) => [...buf.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)] as [number, number, number];
    let [top, bottom, left, right] = [h, -1, w, -1];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const [r, g, b] = at(data, x, y);
        if (r > 200 && g < 60 && b < 60)
          [top, bottom, left, right] = [Math.min(top, y), Math.max(bottom, y), Math.min(left, x), Math.max(right, x)];
      }
    }
    // Fitted in 30 % of the frame's width and 10 % of its height, keeping its 2:1 shape (the disc is half its width).
    expect(bottom - top + 1).toBeLessThanOrEqual(Math.ceil(frame.height * 0.1));
    expect(bottom - top + 1).toBeGreaterThan(frame.height * 0.08);
    expect(Math.abs((left + right) / 2 - w / 2)).toBeLessThan(4);
    // Below the top bar in every window the move shows, and above the type.
    expect(top).toBeGreaterThan(h - frame.height + 0.08 * frame.height);
    expect(bottom).toBeLessThan(h * 0.35);
    // Where the logo is transparent, the picture shows through (a corner of its box).
    const corner = [Math.round(w / 2 - (bottom - top) * 0.95), top + 2] as const;
    const [r0, g0, b0] = at(source, ...corner);
    const [r1, g1, b1] = at(data, ...corner);
    expect(Math.max(Math.abs(r1 - r0), Math.abs(g1 - g0), Math.abs(b1 - b0))).toBeLessThan(16);
    // The bottom tenth is much darker than the picture's.
    const mean = (buf: Buffer) => {
      let sum = 0;
      for (let i = Math.floor(h * 0.9) * w * 3; i < buf.length; i++) sum += buf[i] as number;
      return sum / (buf.length - Math.floor(h * 0.9) * w * 3);
    };
    expect(mean(data)).toBeLessThan(mean(source) * 0.35);
    // It keeps darkening to the bottom edge: no flat band under the type, which read as a letterbox.
    const kept = (share: number) => {
      const y = Math.round(h * share);
      const sum = (buf: Buffer) => buf.subarray(y * w * 3, (y + 1) * w * 3).reduce((a, v) => a + v, 0);
      return sum(data) / sum(source);
    };
    expect(kept(0.97)).toBeLessThan(kept(0.85) * 0.85);
    expect(kept(0.85)).toBeLessThan(kept(0.78) * 0.95);
    // And softened toward a blur wide enough to take the type's background out of focus: 20 px outside the
    // block's left edge its darkness bleeds in, where 60 px out it does not (measured 18 levels in all over three
    // rows; 5 when the blur was only 3 px wide).
    const edge = Math.round(w * 0.3);
    const change = (x: number, y: number) => at(data, x, y)[0] - at(source, x, y)[0];
    const bleed = [0.5, 0.55, 0.6].reduce((sum, share) => {
      const y = Math.round(h * share);
      return sum + change(edge - 60, y) - change(edge - 20, y);
    }, 0);
    expect(bleed).toBeGreaterThanOrEqual(12);
  });

  it('refuses a logo whose header claims 20000×20000 before decoding it', async () => {
    const still = await picture(w, h, 'huge-still.jpg');
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    // IHDR's width and height, then its CRC recomputed so the header is valid.
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    const logo = join(dir, 'huge.png');
    await writeFile(logo, png);
    await expect(
      drawEndCard(still, join(dir, 'end-huge.jpg'), { width: w, height: h, brand: { ...BRAND, logo }, template: TEMPLATES.sale }),
    ).rejects.toThrow(/20000×20000, more than 16 megapixels/);
  });
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
