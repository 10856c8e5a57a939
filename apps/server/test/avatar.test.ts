// The Avatar tool end to end (decision "The Avatar tool"): a portrait and a script become a captioned talking video
// in the user's history, charged per second of script as quoted, refunded whole when the presenter cannot be made.
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avatarSeconds } from '@reelsmith/contract';
import { locateTools, probe } from '@reelsmith/media';
import { drawnPortrait, formatTags } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pointsLedger } from '../src/db/schema.js';
import { ProviderError } from '../src/providers/http.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';
import { taskRunner } from './support/taskRunner.js';

const [testDb] = testDatabases();
const tools = locateTools();
const SUBMIT = '/task/v1/avatar-video/submit';
const SCRIPT = 'Meet Lumi, the lamp that follows the sun. It charges by day and glows all night. Tap the link to get yours.';

/** A head-and-shoulders portrait the face detector takes for one face looking at the camera. */
const portrait = () => drawnPortrait().then((jpeg) => sharp(jpeg).png().toBuffer());
/** A face-coloured oval on a studio grey: no face a detector would find. */
const blank = () =>
  sharp({ create: { width: 720, height: 960, channels: 3, background: { r: 120, g: 126, b: 134 } } })
    .composite([
      { input: Buffer.from('<svg width="720" height="960"><ellipse cx="360" cy="330" rx="150" ry="190" fill="#e0b49a"/></svg>') },
    ])
    .png()
    .toBuffer();

interface Answer {
  status: string;
  error?: string;
  videos?: { resKey: string; url: string; posterUrl?: string }[];
}

describe(`the Avatar tool on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>);
  const tasks = taskRunner(t);
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reelsmith-avatar-'));
  });
  afterEach(() => tasks.stop());
  afterAll(() => rm(work, { recursive: true, force: true }));

  const submitAndWait = (browser: Browser, body: object) => tasks.run<Answer>(browser, 'avatar-video', body);
  const ledgerOf = (taskId: string) => t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId));

  it('makes a 9:16 talking video of the script, free as the sandbox’s stand-in, kept in the tool’s history', {
    timeout: 180_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'presenter');
    const uploaded = (await upload(t, browser, await portrait(), 'png')).body.data as { resKey: string };
    // No vendor is set up here: the sandbox's stand-in makes the presenter talk, and the tool is told so.
    expect(await browser.ok('GET', '/video/avatar/engine')).toEqual({ engine: 'sandbox' });
    // A stand-in costs nothing (decision "Stand-ins are free"); a vendor's clip is charged avatarVideo × its seconds (below).
    expect(await browser.ok('GET', '/points/skuPrice', { query: { skuCode: 'avatarVideo' } })).toEqual({
      skuCode: 'avatarVideo',
      price: 0,
      standIn: true,
    });
    const seconds = avatarSeconds(SCRIPT);
    expect(seconds).toBeGreaterThanOrEqual(8);
    expect(seconds).toBeLessThanOrEqual(10);
    const before = await availableOf(t.ctx.db, userId);

    const done = await submitAndWait(browser, { script: SCRIPT, consent: true, presenter: { resKey: uploaded.resKey }, musicId: 'spark' });
    expect(done.status, done.error).toBe('SUCCESS');
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(await ledgerOf(done.taskId)).toEqual([]);

    const video = done.videos?.[0] as NonNullable<Answer['videos']>[number];
    const res = await t.app.inject({ method: 'GET', url: video.url });
    expect(res.statusCode).toBe(200);
    const file = join(work, 'avatar.mp4');
    writeFileSync(file, res.rawPayload);
    const probed = await probe(tools, file);
    expect([probed.width, probed.height]).toEqual([1080, 1920]);
    expect(probed.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    // As long as the voice: the script's words at an ad's pace, give or take the voice's own.
    expect(probed.duration).toBeGreaterThan(4);
    expect(probed.duration).toBeLessThan(seconds * 1.5);
    expect(await formatTags(tools, file)).toMatchObject({ ai_generated: 'true' });

    const history = (await browser.ok('POST', '/generation/history', { body: { tool: 'avatar-video', page: 1, pageSize: 10 } })) as {
      taskId: string;
      outputs: unknown[];
    }[];
    expect(history.map((record) => record.taskId)).toEqual([done.taskId]);
    expect(history[0]?.outputs).toHaveLength(1);
    await expectConsistent(t.ctx.db);
  });

  it('refuses before charging: no portrait, another user’s picture, a script with no words or too long, an unknown voice, no face or two', async () => {
    const { browser, userId } = await activeMember(t, 'careful');
    const other = await activeMember(t, 'someone-else');
    const theirs = (await upload(t, other.browser, await portrait(), 'png')).body.data as { resKey: string };
    const before = await availableOf(t.ctx.db, userId);
    const refusals: [object, number][] = [
      [{ script: SCRIPT, consent: true, presenter: {} }, 40081],
      [{ script: SCRIPT, consent: true, presenter: { resKey: theirs.resKey } }, 404],
      [{ script: ' … ', consent: true, presenter: { resKey: theirs.resKey } }, 40000],
      [{ script: 'word '.repeat(239), consent: true, presenter: { resKey: theirs.resKey } }, 40000],
      [{ script: SCRIPT, consent: true, presenter: { imageUrl: 'http://127.0.0.1/face.png' } }, 40016],
      // Nobody's face is used without the caller stating they have the right to use it.
      [{ script: SCRIPT, presenter: { resKey: theirs.resKey } }, 40097],
    ];
    for (const [body, code] of refusals) {
      const answer = await browser.call('POST', SUBMIT, { body });
      expect((answer.body as { code: number }).code, JSON.stringify(answer.body)).toBe(code);
    }
    const mine = (await upload(t, browser, await portrait(), 'png')).body.data as { resKey: string };
    const voice = await browser.call('POST', SUBMIT, {
      body: { script: SCRIPT, consent: true, presenter: { resKey: mine.resKey }, voiceId: 'nobody' },
    });
    expect(voice.body).toMatchObject({ code: 40000 });
    // A picture with no face, two people or a face turned away is looked at and refused, in plain words.
    const faceless = (await upload(t, browser, await blank(), 'png')).body.data as { resKey: string };
    const noFace = await browser.call('POST', SUBMIT, { body: { script: SCRIPT, consent: true, presenter: { resKey: faceless.resKey } } });
    expect(noFace.body).toMatchObject({
      code: 40093,
      message:
        "No face was found in the presenter's photo. Please use a clear, front-facing photo of one person. Your credits were not used.",
    });
    const pair = (await upload(t, browser, await drawnPortrait({ width: 1200, height: 900, faces: 2, scale: 1.1 }), 'jpeg')).body.data as {
      resKey: string;
    };
    const two = await browser.call('POST', SUBMIT, { body: { script: SCRIPT, consent: true, presenter: { resKey: pair.resKey } } });
    expect(two.body).toMatchObject({ code: 40094 });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('refunds exactly the charge when the presenter cannot be made, with the vendor’s refusal in plain words', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'refused');
    const uploaded = (await upload(t, browser, await portrait(), 'png')).body.data as { resKey: string };
    const before = await availableOf(t.ctx.db, userId);
    const original = t.ctx.providers.talkingAvatar;
    t.ctx.providers.talkingAvatar = {
      name: 'fal',
      talk: async () => {
        throw new ProviderError('POST https://queue.fal.run/fal-ai/kling-video/ai-avatar/v2/standard answered 422: content policy', 422);
      },
    };
    try {
      const done = await submitAndWait(browser, { script: SCRIPT, consent: true, presenter: { resKey: uploaded.resKey }, ratio: '1:1' });
      expect(done.status).toBe('FAILURE');
      expect(JSON.parse(done.error as string)).toEqual({
        message: 'The generation service refused this request. Please change the prompt or pictures and try again.',
      });
      const charged = avatarSeconds(SCRIPT) * 3;
      expect((await ledgerOf(done.taskId)).map((row) => [row.operationType, row.pointsChange]).sort()).toEqual([
        ['AVATAR_VIDEO', -charged],
        ['REFUND_TASK', charged],
      ]);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
    } finally {
      t.ctx.providers.talkingAvatar = original;
    }
    await expectConsistent(t.ctx.db);
  });
});
