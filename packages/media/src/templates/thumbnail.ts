/**
 * A template's thumbnail for the template picker: one frame of its hook, drawn by the renderer's own parts (the
 * still framed, set and graded as the template does, the hook card burnt in by libass), from the user's own
 * picture or, without one, a sample product drawn here. Decision "Ad templates".
 */
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_BRAND } from '../brand/look.js';
import { filterValue } from '../render/filters.js';
import { sceneSubject } from '../render/scene/kinds.js';
import { stillLook } from '../render/sceneLook.js';
import { MOTION_MARGIN, prepareStill } from '../render/stills.js';
import { type AspectRatio, frameSize, type Timeline } from '../render/timeline.js';
import { runTool } from '../run.js';
import type { Language } from '../script/language.js';
import { locateTools, type MediaTools } from '../tools.js';
import { type AdFacts, type BrandLook, buildCardsAss, cardFace, cardFontsDir } from './cards.js';
import { TEMPLATES, type TemplateId } from './catalogue.js';

export interface ThumbnailOptions {
  /** A local picture of the product; absent, the sample product. */
  file?: string | undefined;
  templateId: TemplateId;
  aspectRatio: AspectRatio;
  language: Language;
  /** What the hook says; absent, a sample name in `language`. */
  name?: string | undefined;
  offer?: AdFacts['offer'];
  brand?: BrandLook | undefined;
  /** A .jpg path. */
  out: string;
  /** Where stills (and the sample product) are kept between thumbnails. */
  cacheDir: string;
  tools?: MediaTools | undefined;
}

/** Thumbnails are this wide (a 9:16 one 270×480): sharp in a picker tile at twice the density. */
const SHORT_SIDE = 270;
/** The frame shown: the hook card is fully in by then. */
const AT_SECONDS = 1.2;

const SAMPLE_NAME: Record<Language, string> = { en: 'Everyday Bottle', zh: '随行保温杯', pt: 'Garrafa Térmica' };
const SAMPLE_OFFER = { price: '24.90', currency: 'USD', listPrice: '34.90' };

/** A sample product on a studio backdrop: a bottle with a cap, a label and a shadow, drawn once and kept. */
async function sampleProduct(cacheDir: string): Promise<string> {
  const file = join(cacheDir, 'sample-product-1.png');
  if (await stat(file).catch(() => undefined)) return file;
  await mkdir(cacheDir, { recursive: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">
<defs><linearGradient id="body" x1="0" x2="1"><stop offset="0" stop-color="#1f6f63"/><stop offset="0.45" stop-color="#3fb39c"/><stop offset="1" stop-color="#145048"/></linearGradient>
<radialGradient id="bg" cx="50%" cy="40%" r="70%"><stop offset="0" stop-color="#f7f6f3"/><stop offset="1" stop-color="#dcdad5"/></radialGradient></defs>
<rect width="1000" height="1000" fill="url(#bg)"/><ellipse cx="500" cy="880" rx="190" ry="26" fill="rgba(0,0,0,0.22)"/>
<rect x="390" y="230" width="220" height="650" rx="70" fill="url(#body)"/><rect x="420" y="150" width="160" height="110" rx="26" fill="#23302e"/>
<rect x="390" y="470" width="220" height="150" fill="#f1ede4"/><rect x="430" y="515" width="140" height="18" rx="9" fill="#145048"/>
<rect x="455" y="555" width="90" height="12" rx="6" fill="#7c9b95"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(`${file}.part.png`);
  await rename(`${file}.part.png`, file);
  return file;
}

/** Renders the thumbnail of `templateId` to `options.out`. */
export async function templateThumbnail(options: ThumbnailOptions): Promise<void> {
  const { templateId, aspectRatio, language, cacheDir, tools = locateTools() } = options;
  const template = TEMPLATES[templateId];
  const brand = options.brand ?? DEFAULT_BRAND;
  const { width, height } = frameSize(aspectRatio, SHORT_SIDE);
  const file = options.file ?? (await sampleProduct(cacheDir));
  const grade = template.hook === 'question' ? ('problem' as const) : undefined;
  const still = await prepareStill(file, width, height, cacheDir, stillLook(template, brand, grade));
  const name = options.name ?? SAMPLE_NAME[language];
  const timeline: Timeline = {
    aspectRatio,
    seconds: 2,
    look: template,
    transition: 0,
    transitionKind: 'cut',
    scenes: [{ media: { kind: 'image', file }, role: 'hook', grade, start: 0, seconds: 2, motion: 'none' }],
  };
  const facts: AdFacts = {
    name,
    offer: options.offer ?? (options.file ? undefined : SAMPLE_OFFER),
    features: [],
    opening: name,
    callToAction: '',
  };
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-thumbnail-'));
  try {
    const ass = join(work, 'cards.ass');
    const hookSubject = await sceneSubject(timeline.scenes[0] as Timeline['scenes'][number], aspectRatio, { width, height }, cacheDir);
    await writeFile(ass, buildCardsAss({ timeline, template, facts, brand, width, height, language, aiLabel: false, hookSubject }));
    // The still carries the moves' margin: its middle is the frame a still scene opens on.
    const margin = (side: number) => 2 * Math.floor((side * MOTION_MARGIN - side) / 4);
    await runTool(
      tools.ffmpeg,
      [
        ...['-v', 'error', '-y', '-loop', '1', '-framerate', '25', '-t', String(AT_SECONDS + 0.2), '-i', still],
        '-vf',
        `crop=${width}:${height}:${margin(width)}:${margin(height)},setsar=1,ass=filename=${filterValue(ass)}:fontsdir=${filterValue(cardFontsDir(cardFace(template, brand)))},select='gte(t\\,${AT_SECONDS})'`,
        ...['-frames:v', '1', '-q:v', '3', options.out],
      ],
      { timeoutMs: 60_000 },
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
