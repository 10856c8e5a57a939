// composeAd: an ad from its plan in one call (decision "The ad engine"), as the server's link to video uses it.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AdPlan,
  type AdStage,
  composeAd,
  DEFAULT_BRAND,
  featureLines,
  findFaces,
  learnPicture,
  locateTools,
  presenterSpans,
  probe,
  runTool,
  splitScript,
  type TalkRequest,
  TalkTooLongError,
  type TimelineMedia,
} from '../src/index.js';
import { drawnPortrait, formatTags, productPhoto, shownFile } from './fixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How the ads here look and sound: a 15 s 9:16 preview in English, labelled. */
const AD = {
  templateId: 'clean-studio',
  brand: DEFAULT_BRAND,
  aspectRatio: '9:16',
  videoLength: 15,
  quality: 'preview',
  language: 'en',
  voiceId: 'en-ava',
  musicId: 'spark',
  captionId: 'karaoke',
  aiLabel: true,
} as const satisfies Partial<AdPlan>;

describe('composeAd', () => {
  it('renders a 15 s 9:16 preview from pictures and a script, with its music, its timeline and the AI tag', async () => {
    const pictures = await Promise.all(
      [0.4, 0.6].map(async (at, i) => {
        const file = join(dir, `shot-${i}.png`);
        writeFileSync(file, await productPhoto(900, 1200, { at }));
        return { kind: 'image' as const, file, width: 900, height: 1200 };
      }),
    );
    // Link analysis learns the pictures while the user reads the page: the preview then finds nothing new to learn.
    const cacheDir = join(dir, 'cache');
    for (const picture of pictures) await learnPicture(picture.file, cacheDir);
    const learnt = () =>
      readdirSync(join(cacheDir, 'stills'))
        .filter((name) => /\.(subject\.json|mask-\w+)$/.test(name))
        .sort();
    const before = learnt();
    expect(before.filter((name) => name.endsWith('.subject.json'))).toHaveLength(pictures.length);
    const description = 'Keeps drinks cold all day. Leak-proof lid. Fits every cup holder.';
    const segments = splitScript('Meet the Trail bottle.\nIt keeps drinks cold all day.\nGet yours today.');
    const stages: AdStage[] = [];
    const workDir = mkdtempSync(join(dir, 'work-'));
    const ad = await composeAd(
      {
        scenes: pictures,
        segments,
        ...AD,
        facts: {
          name: 'Trail Bottle',
          features: featureLines(description, 'en'),
          opening: 'Meet the Trail bottle.',
          callToAction: 'Shop now',
        },
      },
      { workDir, cacheDir, tools, progress: (stage) => void stages.push(stage) },
    );
    expect(stages).toEqual(['voice', 'timeline', 'captions', 'render']);
    expect(ad.file).toBe(join(workDir, 'video.mp4'));
    expect([ad.width, ad.height]).toEqual([540, 960]);
    const probed = await probe(tools, ad.file);
    expect(Math.abs(probed.duration - 15)).toBeLessThanOrEqual(0.05);
    expect(probed.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    // The timeline tells which picture each scene shows: the plan's own files, the first opening the ad.
    expect(ad.timeline.seconds).toBe(15);
    expect(shownFile(ad.timeline.scenes[0]?.media as TimelineMedia)).toBe(pictures[0]?.file);
    expect(new Set(ad.timeline.scenes.filter((s) => s.role !== 'end').map((s) => shownFile(s.media)))).toEqual(
      new Set(pictures.map((p) => p.file)),
    );
    expect(await formatTags(tools, ad.file)).toMatchObject({ comment: 'AI-generated content', ai_generated: 'true' });
    // The music's loop, the pictures' stills and the spoken lines (the local engine's: its export speaks none
    // again) were kept in the cache folder the caller gave.
    expect(readdirSync(cacheDir).sort()).toEqual(['music', 'speech', 'stills']);
    expect(learnt()).toEqual(before);
    expect(readdirSync(join(cacheDir, 'speech')).filter((name) => name.endsWith('.words.json'))).toHaveLength(segments.length);
    expect(segments).toHaveLength(3);
  });
});

describe('composeAd with a presenter on camera (decision "Presenter in link to video")', () => {
  const plan = async (): Promise<AdPlan> => {
    const picture = join(dir, 'bottle.png');
    writeFileSync(picture, await productPhoto(900, 1200));
    const portrait = join(dir, 'presenter.jpg');
    writeFileSync(portrait, await drawnPortrait());
    return {
      scenes: [{ kind: 'image', file: picture, width: 900, height: 1200 }],
      segments: splitScript('Tired of warm drinks?\nThe Trail bottle keeps them cold all day.\nIts lid never leaks.\nGet yours today.'),
      ...AD,
      facts: { name: 'Trail Bottle', features: [], opening: 'Tired of warm drinks?', callToAction: 'Shop now' },
      presenter: { picture: portrait },
    };
  };
  /**
   * A stand-in for a vendor's clip: the framed portrait as long as the stretch of voice it was given, each request
   * kept in `asked`.
   */
  const standIn =
    (workDir: string, asked: (TalkRequest & { image: string })[]) =>
    async (request: TalkRequest & { image: string }): Promise<string> => {
      const out = join(workDir, `take-${asked.push(request)}.mp4`);
      const { duration } = await probe(tools, request.voice);
      await runTool(tools.ffmpeg, [
        '-v',
        'error',
        '-y',
        '-loop',
        '1',
        '-i',
        request.image,
        '-t',
        duration.toFixed(3),
        '-pix_fmt',
        'yuv420p',
        out,
      ]);
      return out;
    };
  /** What the first frame of the ad shows, looked at by the face detector. */
  const facesAt = async (file: string, at: number) => {
    const frame = join(dir, `frame-${at}.png`);
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', frame]);
    return findFaces(frame);
  };

  it('previews the presenter held on the opening and the call to action, and counts the seconds they would talk', async () => {
    const ad = await composeAd(await plan(), { workDir: mkdtempSync(join(dir, 'held-')), cacheDir: join(dir, 'cache') });
    const kinds = ad.timeline.scenes.map((s) => s.media.kind);
    expect(kinds[0]).toBe('presenter');
    expect(kinds.filter((k) => k === 'presenter')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('image');
    expect(ad.timeline.scenes.every((s) => s.media.kind !== 'presenter' || s.media.clip === undefined)).toBe(true);
    const spans = presenterSpans(ad.timeline);
    expect(ad.presenterSeconds).toBeCloseTo(
      spans.reduce((sum, s) => sum + s.end - s.start, 0),
      6,
    );
    expect(ad.presenterSeconds).toBeGreaterThan(2);
    expect(ad.presenterSeconds).toBeLessThan(15);
    expect(Math.abs((await probe(tools, ad.file)).duration - 15)).toBeLessThanOrEqual(0.05);
    // The opening shows a face, the framed portrait; the product scene after it none.
    expect(await facesAt(ad.file, 0.5)).toHaveLength(1);
    const product = ad.timeline.scenes[1] as { start: number; seconds: number };
    expect(await facesAt(ad.file, product.start + product.seconds / 2)).toHaveLength(0);
  });

  it('at export has the presenter say each of their stretches of the voice, once each, and shows the clips', async () => {
    const asked: (TalkRequest & { image: string })[] = [];
    const base = await plan();
    const workDir = mkdtempSync(join(dir, 'talking-'));
    const ad = await composeAd(
      {
        ...base,
        presenter: {
          picture: (base.presenter as { picture: string }).picture,
          maxSeconds: 15,
          talk: standIn(workDir, asked),
        },
      },
      { workDir, cacheDir: join(dir, 'cache') },
    );
    const spans = presenterSpans(ad.timeline);
    expect(asked).toHaveLength(spans.length);
    // Asked at once: each stretch once, silence making up the time the presenter is on screen after their last word.
    const said = await Promise.all(asked.map(async (request) => (await probe(tools, request.voice)).duration));
    const lengths = spans.map((span) => span.end - span.start).sort((a, b) => a - b);
    expect(said).toHaveLength(lengths.length);
    said.sort((a, b) => a - b);
    for (const [i, seconds] of said.entries()) expect(seconds).toBeCloseTo(lengths[i] as number, 1);
    for (const request of asked) {
      const { duration } = await probe(tools, request.voice);
      expect([request.width, request.height]).toEqual([540, 960]);
      expect(request.sentenceEnds.every((end) => end > 0 && end < duration)).toBe(true);
    }
    const clips = ad.timeline.scenes.flatMap((s) => (s.media.kind === 'presenter' ? [s.media.clip] : []));
    expect(clips.sort()).toEqual(asked.map((_, i) => join(workDir, `take-${i + 1}.mp4`)));
    expect(Math.abs((await probe(tools, ad.file)).duration - 15)).toBeLessThanOrEqual(0.05);
    expect(await facesAt(ad.file, 0.5)).toHaveLength(1);
  });

  it('in a corner, has the presenter say everything up to the end card in one take, played on across the scenes', async () => {
    const asked: (TalkRequest & { image: string })[] = [];
    const base = await plan();
    const workDir = mkdtempSync(join(dir, 'corner-'));
    const ad = await composeAd(
      {
        ...base,
        presenter: {
          picture: (base.presenter as { picture: string }).picture,
          layout: 'corner',
          maxSeconds: 15,
          talk: standIn(workDir, asked),
        },
      },
      { workDir, cacheDir: join(dir, 'cache') },
    );
    const scenes = ad.timeline.scenes;
    expect(scenes[0]?.media.kind).toBe('presenter');
    expect(scenes.slice(1, -1).every((s) => s.media.kind === 'presented' && s.media.layout === 'corner')).toBe(true);
    expect(scenes.at(-1)?.media.kind).toBe('image');
    // One take, from the first frame to the end card's: what the export charges for.
    expect(asked).toHaveLength(1);
    const end = scenes.at(-1) as { start: number };
    expect(ad.presenterSeconds).toBeCloseTo(end.start, 6);
    expect((await probe(tools, asked[0]?.voice as string)).duration).toBeCloseTo(end.start, 1);
    // Each scene plays the take from where its first frame falls in it.
    const froms = scenes.slice(1, -1).map((s) => (s.media.kind === 'presented' ? s.media.presenter.from : undefined));
    const firstFrames = scenes.slice(1, -1).map((s) => s.start - ad.timeline.transition);
    for (const [i, from] of froms.entries()) expect(from).toBeCloseTo(firstFrames[i] as number, 6);
    expect(scenes.slice(1, -1).every((s) => s.media.kind === 'presented' && s.media.presenter.clip === join(workDir, 'take-1.mp4'))).toBe(
      true,
    );
    // Over a product scene, the one face is the presenter's, in the inset in the lower right.
    const second = scenes[1] as { start: number; seconds: number };
    const faces = await facesAt(ad.file, second.start + second.seconds / 2);
    expect(faces).toHaveLength(1);
    expect(faces[0]?.box.x).toBeGreaterThan(0.5);
    expect(faces[0]?.box.y).toBeGreaterThan(0.4);
  });

  it('refuses to have the presenter talk longer than was paid for, before asking', async () => {
    const base = await plan();
    let asked = 0;
    const talking = composeAd(
      {
        ...base,
        presenter: {
          picture: (base.presenter as { picture: string }).picture,
          maxSeconds: 1,
          talk: async () => {
            asked++;
            return '';
          },
        },
      },
      { workDir: mkdtempSync(join(dir, 'over-')), cacheDir: join(dir, 'cache') },
    );
    await expect(talking).rejects.toBeInstanceOf(TalkTooLongError);
    expect(asked).toBe(0);
  });
});
