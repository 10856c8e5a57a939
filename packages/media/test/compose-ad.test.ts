// composeAd: an ad from its plan in one call (decision "The ad engine"), as the server's link to video uses it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdStage, composeAd, DEFAULT_BRAND, featureLines, learnPicture, locateTools, probe, splitScript } from '../src/index.js';
import { productPhoto } from './fixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
        templateId: 'clean-studio',
        brand: DEFAULT_BRAND,
        facts: {
          name: 'Trail Bottle',
          features: featureLines(description, 'en'),
          opening: 'Meet the Trail bottle.',
          callToAction: 'Shop now',
        },
        aspectRatio: '9:16',
        videoLength: 15,
        quality: 'preview',
        language: 'en',
        voiceId: 'en-ava',
        musicId: 'spark',
        captionId: 'karaoke',
        aiLabel: true,
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
    expect(ad.timeline.scenes[0]?.media.file).toBe(pictures[0]?.file);
    expect(new Set(ad.timeline.scenes.filter((s) => s.role !== 'end').map((s) => s.media.file))).toEqual(
      new Set(pictures.map((p) => p.file)),
    );
    const { stdout } = await promisify(execFile)(tools.ffprobe, ['-v', 'error', '-show_entries', 'format_tags', '-of', 'json', ad.file]);
    expect(JSON.parse(stdout).format.tags).toMatchObject({ comment: 'AI-generated content', ai_generated: 'true' });
    // The music's loop, the pictures' stills and the spoken lines (the local engine's: its export speaks none
    // again) were kept in the cache folder the caller gave.
    expect(readdirSync(cacheDir).sort()).toEqual(['music', 'speech', 'stills']);
    expect(learnt()).toEqual(before);
    expect(readdirSync(join(cacheDir, 'speech')).filter((name) => name.endsWith('.words.json'))).toHaveLength(segments.length);
    expect(segments).toHaveLength(3);
  });
});
