// The README's two commands on a machine with nothing but Node and npm (decision "Node and npm at run time"):
// `npm start` with no music synthesiser on PATH (a `fluidsynth` that exits 127 stands first on it, as a broken
// system package would) and the npm-installed ffmpeg 4.1 and ffprobe, then the main job as a new user meets it: a
// shop page analysed, three previews, a 15 s export downloaded. Prints the time from `npm start` to the download.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../test-support/wait.js';
import { ApiClient } from '../support/api.js';
import { type Product, startProduct } from '../support/product.js';
import { openShop, type Shop } from '../support/shop.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The binaries `npm install` brings, as a machine without a system ffmpeg uses them. */
const NPM_FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const NPM_FFPROBE = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

interface Task {
  status: string;
  error?: string;
}

/** Polls a task until it ends; a failure fails the test with the task's own message. */
async function finished<T>(api: ApiClient, kind: string, taskId: string, timeoutMs = 240_000): Promise<T & Task> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const state = await api.ok<T & Task>('GET', `/task/v1/${kind}/query`, { query: { taskId } });
    if (state.status === 'SUCCESS') return state;
    if (state.status === 'FAILURE') throw new Error(`${kind} failed: ${state.error}`);
    await sleep(500);
  }
  throw new Error(`${kind} did not end within ${timeoutMs / 1000} s`);
}

/** Downloads a link the server answered (relative to it) into `file`. */
async function download(product: Product, link: string, file: string): Promise<void> {
  const res = await fetch(new URL(link, product.base));
  expect(res.status).toBe(200);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
}

async function probe(file: string) {
  const { stdout } = await run(NPM_FFPROBE, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  return JSON.parse(stdout) as {
    format: { duration: string };
    streams: Array<{ codec_type: string; width?: number; height?: number }>;
  };
}

describe('a brand-new machine makes an ad with npm install && npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-fresh-'));
  let shop: Shop;
  let product: Product;
  let started: number;

  beforeAll(async () => {
    const shadow = join(dir, 'bin');
    const fake = join(shadow, 'fluidsynth');
    mkdirSync(shadow);
    writeFileSync(fake, '#!/bin/sh\necho "fluidsynth: not installed" >&2\nexit 127\n');
    chmodSync(fake, 0o755);
    shop = await openShop({
      name: 'Trail Runner Water Bottle',
      description: 'An insulated steel bottle that keeps drinks cold for a whole day on the trail. Leak-proof lid, fits cup holders.',
      colours: [
        [30, 90, 160],
        [200, 60, 40],
        [40, 140, 80],
      ],
    });
    started = performance.now();
    product = await startProduct({
      PATH: `${shadow}:${process.env.PATH ?? ''}`,
      FFMPEG_PATH: NPM_FFMPEG,
      FFPROBE_PATH: NPM_FFPROBE,
      OUTBOUND_ALLOW_HOSTS: shop.host,
      LOG_LEVEL: 'info',
      // As a new operator runs it: the music loops are rendered at start.
      MUSIC_WARM_UP: 'true',
    });
  }, 180_000);

  afterAll(async () => {
    await product?.stop();
    await shop?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('analyses a shop page, makes three previews and a 15 s 1080×1920 export at -14 LUFS on the npm ffmpeg', async () => {
    const code = /Invitation code: (\S+)/.exec(product.log())?.[1];
    expect(code).toBeTruthy();
    const api = new ApiClient(product.base);
    await api.ok('POST', '/auth/dev-login', { body: { email: 'new-seller@example.com' } });
    expect(await api.ok('POST', '/users/activate', { query: { inviteCode: code as string } })).toBe(true);

    const { projectId } = await api.ok<{ projectId: string }>('POST', '/project/createProject', { body: {} });
    const analysis = await api.ok<{ taskId: string }>('POST', '/task/v1/link-analysis/submit', {
      body: { projectId, productLink: shop.productUrl },
    });
    const found = await finished<{ productName: string; productDescription: string; productImages: { fileId: string }[] }>(
      api,
      'link-analysis',
      analysis.taskId,
    );
    expect(found.productName).toBe('Trail Runner Water Bottle');
    expect(found.productImages.length).toBe(3);

    const previewing = await api.ok<{ taskId: string }>('POST', '/task/v1/link-video/submit', {
      body: {
        projectId,
        productLink: shop.productUrl,
        productName: found.productName,
        productDescription: found.productDescription,
        fileIds: found.productImages.map((image) => image.fileId),
        editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 3 },
      },
    });
    const previews = await finished<{ previewVideos: { videoUrl: string; scriptId: string }[] }>(api, 'link-video', previewing.taskId);
    expect(previews.previewVideos).toHaveLength(3);
    for (const [i, preview] of previews.previewVideos.entries()) {
      const file = join(dir, `preview-${i}.mp4`);
      await download(product, preview.videoUrl, file);
      const probed = await probe(file);
      expect(probed.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
      expect(Number(probed.format.duration)).toBeCloseTo(15, 0);
    }

    const exporting = await api.ok<{ taskId: string }>('POST', '/task/v1/export-video/submit', {
      body: {
        projectId,
        taskId: previewing.taskId,
        resultNum: 1,
        scriptId: previews.previewVideos[0]?.scriptId,
        videoLengthType: '2',
      },
    });
    const exported = await finished<{ exportVideos: { downloadUrl?: string; videoUrl: string }[] }>(api, 'export-video', exporting.taskId);
    const ad = join(dir, 'ad.mp4');
    const video = exported.exportVideos[0];
    await download(product, video?.downloadUrl ?? (video?.videoUrl as string), ad);
    const seconds = (performance.now() - started) / 1000;
    console.log(`fresh machine: npm start to a downloaded 15 s export in ${seconds.toFixed(1)} s (npm ffmpeg, no fluidsynth)`);

    const probed = await probe(ad);
    const picture = probed.streams.find((s) => s.codec_type === 'video');
    expect([picture?.width, picture?.height]).toEqual([1080, 1920]);
    expect(Math.abs(Number(probed.format.duration) - 15)).toBeLessThanOrEqual(0.1);
    // The music is there and the mix is at the platforms' loudness: -14 LUFS ±1, measured by the same npm ffmpeg.
    const { stderr } = await run(NPM_FFMPEG, ['-hide_banner', '-nostats', '-i', ad, '-af', 'ebur128', '-f', 'null', '-']);
    const integrated = Number(/Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(stderr)?.[1]);
    expect(Math.abs(integrated + 14)).toBeLessThanOrEqual(1);
    // Above 12 kHz only the music plays (the voice is band-limited below it): the ad has music, not only speech.
    const { stderr: high } = await run(NPM_FFMPEG, [
      ...['-hide_banner', '-nostats', '-i', ad, '-af', 'highpass=f=12000,highpass=f=12000,volumedetect', '-f', 'null', '-'],
    ]);
    expect(Number(/mean_volume: (-?[\d.]+) dB/.exec(high)?.[1])).toBeGreaterThan(-75);

    // The server rendered every music loop at start (decision "SoundFont music"): no later preview waits for one.
    await expect
      .poll(() => readdirSync(join(product.dataDir, 'cache', 'music')).filter((f) => /^music-\w+-v\d+\.wav$/.test(f)).length, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe(8);
    // Nothing in the log says a part was missing, and the account paid for the export alone.
    expect(product.log()).not.toMatch(/fluidsynth|MusicSynthMissing|lacks parts/i);
    const { availablePoints } = await api.ok<{ availablePoints: number }>('GET', '/points/account');
    expect(availablePoints).toBe(100 - 30);
  }, 600_000);
});
