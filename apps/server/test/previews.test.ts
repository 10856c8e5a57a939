// Previews as rows (decision "Previews as rows"): link-video writes a row per preview in the transaction that
// records its success, a script update rewrites its preview's row, and an export renders what the row says, with
// the tasks' inputs gone. Real renders, kept short: one 15 s preview from a two-line script and one small picture.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import { asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewRenders, previews, tasks } from '../src/db/schema.js';
import * as compose from '../src/modules/link-video/video/compose.js';
import { exportVideoTask, linkVideoTask, scriptUpdateTask } from '../src/modules/link-video/video/tasks.js';
import { priceOf } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';

// A pass-through spy: every render is real, and the test sees what each was asked to render.
vi.mock('../src/modules/link-video/video/compose.js', async (original) => {
  const real = await original<typeof compose>();
  return { ...real, composeVideo: vi.fn(real.composeVideo) };
});

const silent = { info() {}, warn() {}, error() {} };
const tools = locateTools();

interface Answer {
  taskId: string;
  status: string;
  error?: string;
  previewVideos: { resKey: string; scriptId: string; taskId: string; templateId?: string }[];
  scriptContentList: { scriptId: string; segments: { segId: number; segText: string }[] }[];
  exportVideos: { resKey: string; videoUrl: string; templateId?: string; fileName?: string; aspectRatio?: string }[];
}

const picture = () =>
  sharp({ create: { width: 240, height: 320, channels: 3, background: { r: 40, g: 110, b: 190 } } })
    .composite([{ input: Buffer.from('<svg width="120" height="120"><circle cx="60" cy="60" r="50" fill="white"/></svg>') }])
    .png()
    .toBuffer();

describe.each(testDatabases())('previews as rows on $name', (testDb) => {
  const t = appOn(testDb, () => ({}), [linkVideoTask, scriptUpdateTask, exportVideoTask]);
  const work = mkdtempSync(join(tmpdir(), 'reelsmith-previews-'));
  let worker: Worker | undefined;
  beforeEach(() => {
    vi.mocked(compose.composeVideo).mockClear();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  async function submitAndWait(browser: Browser, kind: string, body: object): Promise<Answer> {
    const { taskId } = (await browser.ok('POST', `/task/v1/${kind}/submit`, { body })) as { taskId: string };
    worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
    for (;;) {
      const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, { query: { taskId } })) as Answer;
      if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return { ...answer, taskId };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const rowsOf = (projectId: string) => t.ctx.db.select().from(previews).where(eq(previews.projectId, projectId));
  const rendersOf = (previewId: string) =>
    t.ctx.db
      .select({ taskId: previewRenders.taskId })
      .from(previewRenders)
      .where(eq(previewRenders.previewId, previewId))
      .orderBy(asc(previewRenders.taskId));
  const segmentsRendered = () => vi.mocked(compose.composeVideo).mock.calls.map(([, request]) => request.segments);

  it('stores the preview link-video made, rewrites it on a script update, and exports what the row says', {
    timeout: 600_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'rows');
    const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'Row bottle' } })) as {
      projectId: string;
    };
    const uploaded = await upload(t, browser, await picture(), 'png', 'bottle.png');
    const fileId = (uploaded.body.data as { fileId: string }).fileId;
    const before = await availableOf(t.ctx.db, userId);

    const made = await submitAndWait(browser, 'link-video', {
      projectId,
      productLink: 'https://shop.example/products/row-bottle',
      productName: 'Row Bottle',
      productDescription: 'Keeps drinks cold.',
      productBrand: 'Rowa',
      diyScript: true,
      diyScriptContent: 'Cold all day.\nGet yours.',
      fileIds: [fileId],
      editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 1, musicId: 'breeze' },
    });
    expect(made.status, made.error).toBe('SUCCESS');
    const scriptId = made.scriptContentList[0]?.scriptId as string;
    const [row] = await rowsOf(projectId);
    expect(row).toMatchObject({
      userId,
      taskId: made.taskId,
      scriptId,
      variant: 0,
      segments: [
        { segId: 1, segText: 'Cold all day.' },
        { segId: 2, segText: 'Get yours.' },
      ],
      templateId: made.previewVideos[0]?.templateId,
      voiceId: null,
      musicId: 'breeze',
      captionId: null,
      aspectRatio: '9:16',
      videoLength: 15,
      language: null,
      product: { productName: 'Row Bottle', productDescription: 'Keeps drinks cold.', productBrand: 'Rowa' },
      fileIds: [fileId],
      resKey: made.previewVideos[0]?.resKey,
    });
    expect(row?.fileId).toEqual(expect.any(String));
    expect(await rendersOf(row?.id as string)).toEqual([{ taskId: made.taskId }]);

    // Bad input changes nothing: an unknown voice is refused before anything is written or rendered.
    const refused = await browser.call('POST', '/task/v1/script-update/submit', {
      body: { projectId, taskId: made.taskId, resultNum: 1, scriptId, scriptContents: [{ segId: 1, segText: 'Hi.' }], voiceId: 'nobody' },
    });
    expect(refused.body).toMatchObject({ code: 40000, message: expect.stringContaining('voiceId') });
    expect(await rowsOf(projectId)).toEqual([row]);

    const edited = await submitAndWait(browser, 'script-update', {
      projectId,
      taskId: made.taskId,
      resultNum: 1,
      scriptId,
      scriptContents: [
        { segId: 1, segText: 'Cold for hours.' },
        { segId: 2, segText: '  ' },
        { segId: 3, segText: 'Buy now.' },
      ],
      voiceId: 'en-noah',
      templateId: 'sale',
    });
    expect(edited.status, edited.error).toBe('SUCCESS');
    const [updated] = await rowsOf(projectId);
    expect(updated).toMatchObject({
      id: row?.id,
      taskId: made.taskId,
      // As rendered: the blank line is not part of the script.
      segments: [
        { segId: 1, segText: 'Cold for hours.' },
        { segId: 3, segText: 'Buy now.' },
      ],
      templateId: 'sale',
      voiceId: 'en-noah',
      // What the update left alone stays as the preview had it.
      musicId: 'breeze',
      resKey: edited.previewVideos[0]?.resKey,
    });
    expect(updated?.resKey).not.toBe(row?.resKey);
    expect(updated?.updatedAt.getTime()).toBeGreaterThanOrEqual(row?.updatedAt.getTime() as number);
    expect((await rendersOf(row?.id as string)).map((r) => r.taskId)).toEqual([made.taskId, edited.taskId].sort());

    // The row is the only source: the tasks' inputs gone, an edited row is what the export renders, named
    // through the script update (the project's current task).
    await t.ctx.db.execute(sql`update ${tasks} set input = '{}'::jsonb where id in (${made.taskId}, ${edited.taskId})`);
    const changed = [{ segId: 1, segText: 'Straight from the row.' }];
    await t.ctx.db
      .update(previews)
      .set({ segments: changed, aspectRatio: '1:1', templateId: 'minimal-luxury' })
      .where(eq(previews.id, row?.id as string));

    const unknown = await browser.call('POST', '/task/v1/export-video/submit', {
      body: { projectId, taskId: edited.taskId, resultNum: 1, scriptId: 'no-such-script', videoLengthType: '2' },
    });
    expect(unknown.body.code).toBe(40411);
    const stranger = await activeMember(t, 'stranger');
    const stolen = await stranger.browser.call('POST', '/task/v1/export-video/submit', {
      body: { projectId, taskId: edited.taskId, resultNum: 1, scriptId, videoLengthType: '2' },
    });
    expect(stolen.body.code).toBe(40410);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    vi.mocked(compose.composeVideo).mockClear();
    const exported = await submitAndWait(browser, 'export-video', {
      projectId,
      taskId: edited.taskId,
      resultNum: 1,
      scriptId,
      videoLengthType: '2',
    });
    expect(exported.status, exported.error).toBe('SUCCESS');
    expect(segmentsRendered()).toEqual([changed]);
    expect(exported.exportVideos[0]).toMatchObject({ templateId: 'minimal-luxury', aspectRatio: '1:1', fileName: 'Row-bottle-1-15s.mp4' });
    const file = join(work, `export-${testDb.name}.mp4`);
    const res = await t.app.inject({ method: 'GET', url: exported.exportVideos[0]?.videoUrl as string });
    expect(res.statusCode).toBe(200);
    writeFileSync(file, res.rawPayload);
    expect(await probe(tools, file)).toMatchObject({ width: 1080, height: 1080 });
    // Only the export is charged, once, at its length's price; the export leaves the preview as it was.
    expect(before - (await availableOf(t.ctx.db, userId))).toBe(await priceOf(t.ctx.db, 'link2V_15s'));
    expect((await rowsOf(projectId))[0]?.resKey).toBe(updated?.resKey);
    await expectConsistent(t.ctx.db);
  });
});
