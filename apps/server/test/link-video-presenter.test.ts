// A presenter on camera in link to video (decision "Presenter in link to video"): previews hold the presenter's
// portrait on the opening and the call to action at no charge; the export makes them talk and is charged the export
// and their seconds on camera, all refunded when the presenter cannot be made. Another user's presenter is refused.
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFaces, locateTools, probe, runTool } from '@reelsmith/media';
import { drawnPortrait, formatTags, productPhoto } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readText } from '../../../e2e/support/ocr.js';
import { files, pointsLedger, previews as previewRows } from '../src/db/schema.js';
import { priceOf } from '../src/modules/points/prices.js';
import { ProviderError } from '../src/providers/http.js';
import { appOn } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';
import { taskRunner } from './support/taskRunner.js';

// Real renders, tens of seconds on two cores: the first test database only (the ledger's two-SKU charge is tested
// on every database in points-ledger.test.ts).
const [testDb] = testDatabases();
const tools = locateTools();

interface Preview {
  resKey: string;
  scriptId: string;
  videoUrl: string;
  templateId?: string;
  presenterId?: string;
  presenterSeconds?: number;
}
interface Answer {
  status: string;
  error?: string;
  previewVideos: Preview[];
  exportVideos: { videoUrl: string }[];
}

describe(`a presenter in link to video on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>);
  const tasks = taskRunner(t);
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reelsmith-ad-presenter-'));
  });
  afterEach(() => tasks.stop());
  afterAll(() => rm(work, { recursive: true, force: true }));

  const ledgerOf = (taskId: string) => t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId));

  /** A seller with a product picture, a presenter of their own and a project: what a link-video submit names. */
  async function seller(name: string) {
    const member = await activeMember(t, name);
    const face = (await upload(t, member.browser, await drawnPortrait(), 'jpeg')).body.data as { resKey: string };
    const { presenterId } = (await member.browser.ok('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Sam', gender: 'male', voiceId: 'en-noah', consent: true },
    })) as { presenterId: string };
    const bottle = (await upload(t, member.browser, await productPhoto(900, 1200), 'png')).body.data as { fileId: string };
    const { projectId } = (await member.browser.ok('POST', '/project/createProject', { body: { projectName: 'Trail bottle' } })) as {
      projectId: string;
    };
    return { ...member, presenterId, projectId, fileIds: [bottle.fileId] };
  }

  const submit = (s: Awaited<ReturnType<typeof seller>>, presenterId: string) => ({
    projectId: s.projectId,
    productLink: 'https://shop.example/products/trail-bottle',
    productName: 'Trail Bottle',
    productDescription: 'Keeps drinks cold for a whole day. The lid never leaks.',
    diyScript: true,
    diyScriptContent: 'Tired of warm drinks?\nThe Trail bottle keeps them cold all day.\nIts lid never leaks.\nGet yours today.',
    fileIds: s.fileIds,
    editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 1, templateId: 'clean-studio', presenterId },
  });

  /** The frame at `at` seconds of the video behind `url`, downloaded through its signed link as `name`. */
  async function frameAt(url: string, name: string, at: number): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const file = join(work, name);
    writeFileSync(file, res.rawPayload);
    const frame = join(work, `${name}-${at}.png`);
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', frame]);
    return frame;
  }
  const facesAt = async (url: string, name: string, at: number) => (await findFaces(await frameAt(url, name, at))).length;

  it('previews the presenter free, then exports them talking for the export’s price, the stand-in’s seconds free', {
    timeout: 300_000,
  }, async () => {
    const s = await seller('presenter-ad');
    const before = await availableOf(t.ctx.db, s.userId);

    // Another user's presenter answers as one that does not exist, and nothing is charged or made.
    const other = await activeMember(t, 'presenter-ad-other');
    const stolen = await other.browser.call('POST', '/task/v1/link-video/submit', { body: submit(s, s.presenterId) });
    expect(stolen.body).toMatchObject({ code: 404 });

    const previews = await tasks.run<Answer>(s.browser, 'link-video', submit(s, s.presenterId));
    expect(previews.status, previews.error).toBe('SUCCESS');
    const [preview] = previews.previewVideos as [Preview];
    expect(preview.presenterId).toBe(s.presenterId);
    // The opening line and the call to action: a few seconds of the 15, in whole seconds.
    expect(preview.presenterSeconds).toBeGreaterThanOrEqual(3);
    expect(preview.presenterSeconds).toBeLessThanOrEqual(10);
    expect(await facesAt(preview.videoUrl, 'preview.mp4', 0.5)).toBe(1);
    expect(await availableOf(t.ctx.db, s.userId)).toBe(before);

    const exported = await tasks.run<Answer>(s.browser, 'export-video', {
      projectId: s.projectId,
      taskId: previews.taskId,
      resultNum: 1,
      scriptId: preview.scriptId,
      videoLengthType: '2',
      aiLabel: false,
    });
    expect(exported.status, exported.error).toBe('SUCCESS');
    // The sandbox's talking stand-in is free (decision "Stand-ins are free"): the export alone is charged here; a
    // vendor's seconds are a second row of the same task (the refund test below).
    const exportPrice = await priceOf(t.ctx.db, 'link2V_15s');
    expect((await ledgerOf(exported.taskId)).map((row) => [row.operationType, row.pointsChange])).toEqual([
      ['LINK_TO_VIDEO', -exportPrice],
    ]);
    expect(await availableOf(t.ctx.db, s.userId)).toBe(before - exportPrice);
    // The opening is the presenter talking: here the sandbox's stand-in, marked as one and saying what it stands for.
    const url = (exported.exportVideos[0] as { videoUrl: string }).videoUrl;
    expect(await readText(await readFile(await frameAt(url, 'export.mp4', 0.5)))).toContain('talking presenter');
    const video = await probe(tools, join(work, 'export.mp4'));
    expect(video).toMatchObject({ width: 1080, height: 1920 });
    expect(Math.abs(video.duration - 15)).toBeLessThanOrEqual(0.1);
    // A presenter is always labelled AI-generated, whatever the export asked.
    expect(await formatTags(tools, join(work, 'export.mp4'))).toMatchObject({ ai_generated: 'true' });
    // In the library, the export is named a stand-in's work (in part); the previews, the presenter a still, are not.
    const made = await t.ctx.db.select().from(files).where(eq(files.projectId, s.projectId));
    expect(made.filter((file) => file.standIn).map((file) => file.name.replace(/^.* – /, ''))).toEqual(['export.mp4']);
    expect(made.some((file) => file.name.endsWith('preview 1.mp4') && !file.standIn)).toBe(true);

    // Taken out in the quick editor, the presenter is gone from the preview and from what its export would cost.
    const without = await tasks.run<Answer>(s.browser, 'script-update', {
      projectId: s.projectId,
      taskId: previews.taskId,
      resultNum: 1,
      scriptId: preview.scriptId,
      scriptContents: [
        { segId: 1, segText: 'Cold all day.' },
        { segId: 2, segText: 'Get yours today.' },
      ],
      presenterId: null,
    });
    expect(without.status, without.error).toBe('SUCCESS');
    expect(without.previewVideos[0]).not.toHaveProperty('presenterId');
    expect(await facesAt((without.previewVideos[0] as Preview).videoUrl, 'without.mp4', 0.5)).toBe(0);
    await expectConsistent(t.ctx.db);
  });

  it('puts the presenter beside or over the product where the seller chooses, on camera (and paid for) up to the end card', {
    timeout: 300_000,
  }, async () => {
    const s = await seller('presenter-layout');
    const before = await availableOf(t.ctx.db, s.userId);
    // A layout that does not exist is refused before anything is made.
    const wrong = submit(s, s.presenterId);
    const refused = await s.browser.call('POST', '/task/v1/link-video/submit', {
      body: { ...wrong, editorConfig: { ...wrong.editorConfig, presenterLayout: 'floating' } },
    });
    expect(refused.body).toMatchObject({ code: 40000 });

    const body = submit(s, s.presenterId);
    const split = await tasks.run<Answer>(s.browser, 'link-video', {
      ...body,
      editorConfig: { ...body.editorConfig, presenterLayout: 'split' },
    });
    expect(split.status, split.error).toBe('SUCCESS');
    const [preview] = split.previewVideos as [Preview & { presenterLayout?: string }];
    expect(preview.presenterLayout).toBe('split');
    // On camera from the opening to the end card (its last 2.5 s): far longer than the opening and the close.
    expect(preview.presenterSeconds).toBeGreaterThanOrEqual(11);
    expect(preview.presenterSeconds).toBeLessThanOrEqual(13);
    // Over the product, the presenter's face is on the lower half of the split screen.
    const [face] = await findFaces(await frameAt(preview.videoUrl, 'split.mp4', 7));
    expect(face?.box.y).toBeGreaterThan(0.5);
    const stored = await t.ctx.db.select().from(previewRows).where(eq(previewRows.scriptId, preview.scriptId));
    expect(stored.map((row) => [row.presenterLayout, row.presenterSeconds])).toEqual([['split', preview.presenterSeconds]]);

    // Left to the template (Clean studio: the opening and the close), the presenter is on camera a few seconds.
    const update = (presenterLayout: string | null) =>
      tasks.run<Answer>(s.browser, 'script-update', {
        projectId: s.projectId,
        taskId: split.taskId,
        resultNum: 1,
        scriptId: preview.scriptId,
        scriptContents: body.diyScriptContent.split('\n').map((segText, i) => ({ segId: i + 1, segText })),
        presenterLayout,
      });
    const template = await update(null);
    expect(template.status, template.error).toBe('SUCCESS');
    const bookends = template.previewVideos[0] as Preview & { presenterLayout?: string };
    expect(bookends.presenterLayout).toBe('bookends');
    expect(bookends.presenterSeconds).toBeLessThan(preview.presenterSeconds as number);
    // In the corner: the face in the inset, lower right.
    const corner = await update('corner');
    const inset = corner.previewVideos[0] as Preview & { presenterLayout?: string };
    expect(inset.presenterLayout).toBe('corner');
    const [small] = await findFaces(await frameAt(inset.videoUrl, 'corner.mp4', 7));
    expect(small?.box.x).toBeGreaterThan(0.5);
    expect(small?.box.y).toBeGreaterThan(0.4);
    // Previews cost nothing, whatever the layout.
    expect(await availableOf(t.ctx.db, s.userId)).toBe(before);
  });

  it('refunds the export and the presenter’s seconds when the presenter cannot be made', { timeout: 300_000 }, async () => {
    const s = await seller('presenter-ad-refused');
    const previews = await tasks.run<Answer>(s.browser, 'link-video', submit(s, s.presenterId));
    expect(previews.status, previews.error).toBe('SUCCESS');
    const before = await availableOf(t.ctx.db, s.userId);
    const original = t.ctx.providers.talkingAvatar;
    t.ctx.providers.talkingAvatar = {
      name: 'fal',
      talk: async () => {
        throw new ProviderError('POST https://queue.fal.run/fal-ai/kling-video/ai-avatar/v2/standard answered 422: content policy', 422);
      },
    };
    try {
      const exported = await tasks.run<Answer>(s.browser, 'export-video', {
        projectId: s.projectId,
        taskId: previews.taskId,
        resultNum: 1,
        scriptId: (previews.previewVideos[0] as Preview).scriptId,
        videoLengthType: '2',
      });
      expect(exported.status).toBe('FAILURE');
      expect(JSON.parse(exported.error as string)).toEqual({
        message: 'The generation service refused this request. Please change the prompt or pictures and try again.',
      });
      const rows = await ledgerOf(exported.taskId);
      expect(rows.map((row) => row.operationType).sort()).toEqual(['AVATAR_VIDEO', 'LINK_TO_VIDEO', 'REFUND_TASK']);
      expect(await availableOf(t.ctx.db, s.userId)).toBe(before);
    } finally {
      t.ctx.providers.talkingAvatar = original;
    }
    await expectConsistent(t.ctx.db);
  });

  it('refuses a presenter before charging where no one can make them talk', async () => {
    const s = await seller('presenter-ad-nobody');
    const original = t.ctx.providers.talkingAvatar;
    t.ctx.providers.talkingAvatar = null;
    try {
      const refused = await s.browser.call('POST', '/task/v1/link-video/submit', { body: submit(s, s.presenterId) });
      expect(refused.body).toMatchObject({ code: 50030 });
    } finally {
      t.ctx.providers.talkingAvatar = original;
    }
  });
});
