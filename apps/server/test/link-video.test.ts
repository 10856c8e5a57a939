import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportVideo } from '@reelsmith/contract';
import { locateTools, type Probe, probe } from '@reelsmith/media';
import { formatTags } from '@reelsmith/media/fixtures';
import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { tasks } from '../src/db/schema.js';
import { exportVideoTask, linkVideoTask, scriptUpdateTask } from '../src/modules/link-video/video/tasks.js';
import { priceOf } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';

// The whole pipeline renders real videos, which takes tens of seconds on two cores: it runs on the first test
// database only (the queue and ledger under it are tested on every database elsewhere).
const [testDb] = testDatabases();
const silent = { info() {}, warn() {}, error() {} };
const tools = locateTools();

interface VideoAnswer {
  status: string;
  error?: string;
  previewVideos: { resKey: string; scriptId: string; videoUrl: string; taskId: string; templateId?: string }[];
  scriptContentList: { scriptId: string; segments: { segId: number; segText: string }[] }[];
  exportVideos: z.infer<typeof ExportVideo>[];
}

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 900, height: 1200, channels: 3, background: { r, g, b } } })
    .composite([{ input: Buffer.from('<svg width="400" height="400"><circle cx="200" cy="200" r="180" fill="white"/></svg>') }])
    .png()
    .toBuffer();

describe(`link to video on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>, () => ({}), [linkVideoTask, scriptUpdateTask, exportVideoTask]);
  const work = mkdtempSync(join(tmpdir(), 'reelsmith-link-video-'));
  let worker: Worker | undefined;
  afterEach(async () => worker?.stop());
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  async function submitAndWait(browser: Browser, kind: string, body: object): Promise<VideoAnswer & { taskId: string }> {
    const { taskId } = (await browser.ok('POST', `/task/v1/${kind}/submit`, { body })) as { taskId: string };
    worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
    for (;;) {
      const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, { query: { taskId } })) as VideoAnswer;
      if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return { ...answer, taskId };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Downloads a video through its signed link, as a browser would, and probes it. */
  async function probed(url: string, name: string): Promise<Probe> {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const file = join(work, name);
    writeFileSync(file, res.rawPayload);
    return probe(tools, file);
  }

  it('makes previews from distinct scripts, re-renders an edited script, and exports it charged once', { timeout: 300_000 }, async () => {
    const { browser, userId } = await activeMember(t, 'seller');
    const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'Aqua bottle' } })) as {
      projectId: string;
    };
    const fileIds: string[] = [];
    for (const [i, colour] of [
      [30, 120, 200],
      [200, 80, 60],
      [40, 160, 90],
    ].entries()) {
      const answer = await upload(t, browser, await png(...(colour as [number, number, number])), 'png', `bottle-${i}.png`);
      fileIds.push((answer.body.data as { fileId: string }).fileId);
    }
    const before = await availableOf(t.ctx.db, userId);

    const previews = await submitAndWait(browser, 'link-video', {
      projectId,
      productLink: 'https://shop.example/products/aqua-bottle',
      productName: 'Aqua Bottle - 1L Stainless Steel',
      productDescription: 'Keeps drinks cold for 24 hours. Leak-proof lid for your bag. Fits every cup holder.',
      productOffer: { price: '24.90', currency: 'USD' },
      productBrand: 'Aqua',
      fileIds,
      editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 2 },
    });
    expect(previews.status, previews.error).toBe('SUCCESS');
    expect(previews.previewVideos).toHaveLength(2);
    // Two previews, two templates (decision "Ad templates"), each result naming its own.
    expect(previews.previewVideos.map((v) => v.templateId)).toEqual(['clean-studio', 'bold-ugc']);
    const [first, second] = previews.scriptContentList;
    expect(first?.segments.length).toBeGreaterThanOrEqual(2);
    expect(first?.segments).not.toEqual(second?.segments);
    const preview = await probed(previews.previewVideos[0]?.videoUrl as string, 'preview.mp4');
    expect(preview).toMatchObject({ width: 540, height: 960 });
    expect(Math.abs(preview.duration - 15)).toBeLessThanOrEqual(1);
    expect(preview.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    const scriptId = first?.scriptId as string;
    const badVoice = await browser.call('POST', '/task/v1/script-update/submit', {
      body: {
        projectId,
        taskId: previews.taskId,
        resultNum: 1,
        scriptId,
        scriptContents: [{ segId: 1, segText: 'Hi.' }],
        voiceId: 'nobody',
      },
    });
    expect(badVoice.body).toMatchObject({ code: 40000, message: expect.stringContaining('voiceId') });
    const edited = await submitAndWait(browser, 'script-update', {
      voiceId: 'en-noah',
      templateId: 'sale',
      projectId,
      taskId: previews.taskId,
      resultNum: 1,
      scriptId,
      scriptContents: [
        { segId: 1, segText: 'Cold for a whole day.' },
        { segId: 2, segText: 'Get yours today.' },
      ],
    });
    expect(edited.status, edited.error).toBe('SUCCESS');
    expect(edited.scriptContentList).toEqual([
      {
        scriptId,
        segments: [
          { segId: 1, segText: 'Cold for a whole day.' },
          { segId: 2, segText: 'Get yours today.' },
        ],
      },
    ]);
    expect(edited.previewVideos[0]?.scriptId).toBe(scriptId);
    expect(edited.previewVideos[0]?.templateId).toBe('sale');

    const unknown = await browser.call('POST', '/task/v1/export-video/submit', {
      body: { projectId, taskId: edited.taskId, resultNum: 1, scriptId: 'no-such-script', videoLengthType: '2' },
    });
    expect(unknown.body.code).toBe(40411);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    const stranger = await activeMember(t, 'stranger');
    const stolen = await stranger.browser.call('POST', '/task/v1/export-video/submit', {
      body: { projectId, taskId: edited.taskId, resultNum: 1, scriptId, videoLengthType: '2' },
    });
    expect(stolen.body.code).toBe(40410);

    // The web app names the project's current task: here the script update, which leads back to the previews.
    const exported = await submitAndWait(browser, 'export-video', {
      projectId,
      taskId: edited.taskId,
      resultNum: 1,
      scriptId,
      videoLengthType: '2',
      aiLabel: true,
    });
    expect(exported.status, exported.error).toBe('SUCCESS');
    // The export keeps the template its preview was last made in.
    expect(exported.exportVideos[0]?.templateId).toBe('sale');
    const video = await probed(exported.exportVideos[0]?.videoUrl as string, 'export.mp4');
    // The "AI-generated" label asked for is in the file's metadata too (decision "AI-generated label").
    expect(await formatTags(tools, join(work, 'export.mp4'))).toMatchObject({ comment: 'AI-generated content', ai_generated: 'true' });
    expect(video).toMatchObject({ width: 1080, height: 1920 });
    expect(Math.abs(video.duration - 15)).toBeLessThanOrEqual(1);
    // Saved under the project's name, the preview's number and the length; shown at its shape.
    const [exportedVideo] = exported.exportVideos;
    expect(exportedVideo).toMatchObject({ fileName: expect.stringMatching(/^Aqua-bottle-\d-15s\.mp4$/), seconds: 15, aspectRatio: '9:16' });
    // The page labels it with the same number as its file name.
    expect(exportedVideo?.fileName).toContain(`-${exportedVideo?.previewNumber}-15s`);
    const saved = await t.app.inject({ method: 'GET', url: exportedVideo?.downloadUrl as string });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['content-disposition']).toBe(`attachment; filename="${exportedVideo?.fileName}"`);
    expect(before - (await availableOf(t.ctx.db, userId))).toBe(await priceOf(t.ctx.db, 'link2V_15s'));
    await expectConsistent(t.ctx.db);
    // Each is timed among tasks that made as much: the length, how many videos, no presenter (decision "Progress estimates").
    const made = await t.ctx.db
      .select({ id: tasks.id, workload: tasks.workload })
      .from(tasks)
      .where(inArray(tasks.id, [previews.taskId, edited.taskId, exported.taskId]));
    expect(Object.fromEntries(made.map((task) => [task.id, task.workload]))).toEqual({
      [previews.taskId]: '15s×2',
      [edited.taskId]: '15s×1',
      [exported.taskId]: '15s×1',
    });
  });

  it('lists the voices, music and caption styles with samples made on first request', async () => {
    const { browser } = await activeMember(t, 'editor');
    const voices = (await browser.ok('GET', '/link-video/voices', { query: { language: 'zh' } })) as {
      voiceId: string;
      sampleUrl: string;
      offline: boolean;
    }[];
    expect(voices.length).toBeGreaterThanOrEqual(2);
    // No speech provider here: the editor is told these are the offline voices.
    expect(voices.every((v) => v.offline)).toBe(true);
    expect(voices.every((v) => v.voiceId.startsWith('zh-'))).toBe(true);
    const music = (await browser.ok('GET', '/link-video/music')) as { sampleUrl: string; recommended: boolean }[];
    expect(music.some((m) => m.recommended)).toBe(true);
    const captions = (await browser.ok('GET', '/link-video/captions', { query: { language: 'zh' } })) as { previewUrl: string }[];
    expect(captions.length).toBeGreaterThanOrEqual(6);
    // Each preview is drawn in the asked language and named by the previews' version.
    expect(new URL(captions[0]?.previewUrl as string, 'http://x').searchParams.get('language')).toBe('zh');
    expect(new URL(captions[0]?.previewUrl as string, 'http://x').searchParams.get('v')).toMatch(/^\d+$/);

    const voice = await t.app.inject({ method: 'GET', url: voices[0]?.sampleUrl as string });
    expect(voice.statusCode).toBe(200);
    expect(voice.headers['content-type']).toBe('audio/wav');
    expect(voice.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    const preview = await t.app.inject({ method: 'GET', url: captions[0]?.previewUrl as string });
    expect(preview.headers['content-type']).toBe('image/png');
    // A 4:3 thumbnail of the caption over the sample shot.
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ width: 360, height: 270 });
    const previewUrl = captions[0]?.previewUrl ?? '';
    const english = await t.app.inject({ method: 'GET', url: previewUrl.replace('language=zh', 'language=en') });
    expect(english.statusCode).toBe(200);
    expect(english.rawPayload.equals(preview.rawPayload)).toBe(false);
    const unknown = await t.app.inject({ method: 'GET', url: `${captions[0]?.previewUrl.replace(/[^/]+$/, '')}no-such-style` });
    expect(unknown.json()).toMatchObject({ code: 404 });
  });
});
