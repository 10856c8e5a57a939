// A task query's time estimate (decision "Progress estimates"): while a task waits or runs, the median time from
// submission to success of the last 20 successes of its kind and workload on the server, and the time since it was
// submitted; nothing without three such successes, and nothing once it has ended.
import { randomUUID } from 'node:crypto';
import { TASKS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type NewTaskRow, tasks } from '../src/db/schema.js';
import { avatarVideoTask } from '../src/modules/generation/avatar.js';
import { imageToVideoTask, textToImageTask, textToVideoTask, virtualTryOnTask } from '../src/modules/generation/tasks.js';
import { setPrice } from '../src/modules/points/prices.js';
import { claimTask, completeTask } from '../src/modules/tasks/queue.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember } from './support/files.js';
import { imageUrlFor, testTaskKind } from './support/tasks.js';

const KIND = 'enlarge-image';

interface TaskAnswer {
  taskId: string;
  status: string;
  expectedSeconds?: number;
  elapsedSeconds?: number;
}

describe.each(testDatabases())('progress estimates on $name', (testDb) => {
  const { definition } = testTaskKind();
  // An enlargement by 4 is more work than one by 2: the test kind labels its tasks by their scale.
  const scaled: typeof definition = { ...definition, workload: (input) => `×${input.scale}` };
  const t = appOn(testDb, () => ({}), [scaled]);

  const submit = async (browser: Browser, scale: 2 | 4) => {
    // Charged, so the task is written by the ledger's database function, which must keep its workload too.
    await setPrice(t.ctx.db, 'imageEnhance', 1);
    const { taskId } = (await browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: imageUrlFor('ok'), scale } })) as {
      taskId: string;
    };
    return taskId;
  };
  const query = async (browser: Browser, taskId: string) =>
    (await browser.ok('GET', `/task/v1/${KIND}/query`, { query: { taskId } })) as TaskAnswer;

  /** Ended tasks of the test kind that took these seconds from submission to their end, the last ending now. */
  async function ended(userId: string, seconds: number[], row: Partial<NewTaskRow> = {}, endedSecondsAgo = 0) {
    const end = Date.now() - endedSecondsAgo * 1000;
    await t.ctx.db.insert(tasks).values(
      seconds.map(
        (took, i): NewTaskRow => ({
          id: randomUUID(),
          userId,
          kind: KIND,
          input: { imageUrl: imageUrlFor('ok'), scale: 2 },
          status: 'SUCCESS',
          workload: '×2',
          // Apart by a second each, so which are the last is plain.
          createdAt: new Date(end - i * 1000 - took * 1000),
          finishedAt: new Date(end - i * 1000),
          ...row,
        }),
      ),
    );
  }

  it('says nothing of a task whose kind and workload have fewer than three successes', async () => {
    const { browser, userId } = await activeMember(t, 'estimates');
    // Plenty of enlargements by 2 (long before the next test's), two by 4, and failures by 4, which do not count.
    await ended(userId, [10, 20, 30, 40], {}, 7_200);
    await ended(userId, [50, 60], { workload: '×4' });
    await ended(userId, [5, 5, 5], { workload: '×4', status: 'FAILURE' });
    const taskId = await submit(browser, 4);
    expect(await query(browser, taskId)).toEqual({ taskId, status: 'SUBMITTED' });
    // Out of the way of the next test's claim.
    await browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });
  });

  it('answers the median of the last 20 successes of its kind and workload, and the time since it was submitted, until it ends', async () => {
    const { browser, userId } = await activeMember(t, 'estimates');
    // The last 20 took 10 or 30 s: a median of 20. Five older ones took 900 s, and would make it 30 if counted.
    await ended(userId, [900, 900, 900, 900, 900], {}, 3_600);
    await ended(
      userId,
      Array.from({ length: 20 }, (_, i) => (i % 2 ? 30 : 10)),
    );
    // Newer still, and counted neither: a failure, and a batch's rows, which wait behind everyone's by design.
    await ended(userId, [1], { status: 'FAILURE' });
    await ended(userId, [1, 1, 1], { batchRowId: 'a-batch-row' });

    const taskId = await submit(browser, 2);
    const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(row?.workload).toBe('×2');
    expect(await query(browser, taskId)).toEqual({ taskId, status: 'SUBMITTED', expectedSeconds: 20, elapsedSeconds: 0 });

    const claimed = await claimTask(t.ctx.db, [KIND], 'a-worker', 60_000);
    expect(claimed?.id).toBe(taskId);
    await t.ctx.db
      .update(tasks)
      .set({ createdAt: new Date(Date.now() - 7_500) })
      .where(eq(tasks.id, taskId));
    const running = await query(browser, taskId);
    expect(running).toMatchObject({ taskId, status: 'IN_PROGRESS', expectedSeconds: 20 });
    expect(running.elapsedSeconds).toBeGreaterThanOrEqual(7);
    expect(running.elapsedSeconds).toBeLessThan(10);

    expect(await completeTask(t.ctx.db, taskId, 'a-worker', { images: [] })).toBe('completed');
    expect(await query(browser, taskId)).toEqual({ taskId, status: 'SUCCESS', images: [] });
  });

  it('measures the tasks of a kind that labels no workload among themselves', async () => {
    const { browser, userId } = await activeMember(t, 'estimates');
    await ended(userId, [12, 18, 60], { workload: null });
    const taskId = randomUUID();
    await ended(userId, [0], { id: taskId, workload: null, status: 'SUBMITTED', createdAt: new Date(), finishedAt: null });
    expect(await query(browser, taskId)).toEqual({ taskId, status: 'SUBMITTED', expectedSeconds: 18, elapsedSeconds: 0 });
  });
});

describe('what the generation tools are timed by', () => {
  const label = <I>(definition: { workload?: (input: I, ctx: never, user: never) => unknown }, input: I) =>
    definition.workload?.(input, undefined as never, undefined as never);
  const video = (input: object) => TASKS['text-to-video'].input.parse({ prompt: 'a red kettle', ratio: '9:16', ...input });
  const picture = (input: object) => TASKS['text-to-image'].input.parse({ prompt: 'a red kettle', ratio: '1:1', ...input });

  it('times a video with the videos of its model, tier, length and count, and a picture with those of its model, size and count', () => {
    // A 10 s video takes longer than a 5 s one, two longer than one, a pro tier longer than std.
    const five = label(textToVideoTask, video({ duration: 5 }));
    expect(
      new Set([five, label(textToVideoTask, video({ duration: 10 })), label(textToVideoTask, video({ duration: 5, count: 2 }))]).size,
    ).toBe(3);
    expect(label(textToVideoTask, video({ duration: 5, tier: 'pro' }))).not.toBe(five);
    expect(label(textToVideoTask, video({ duration: 5, prompt: 'another prompt' }))).toBe(five);
    expect(label(imageToVideoTask, TASKS['image-to-video'].input.parse({ image: { resKey: 'k' }, duration: 10 }))).toBe(
      label(textToVideoTask, video({ duration: 10 })),
    );
    const one = label(textToImageTask, picture({}));
    expect(
      new Set([
        one,
        label(textToImageTask, picture({ count: 4 })),
        label(textToImageTask, picture({ quality: 'high' })),
        label(textToImageTask, picture({ image: { resKey: 'k' } })),
      ]).size,
    ).toBe(4);
    expect(label(virtualTryOnTask, TASKS['virtual-try-on'].input.parse({ garmentType: 'top', model: { modelId: 'm' }, count: 2 }))).toBe(
      '×2',
    );
  });

  it('times a presenter video with those of about as many seconds spoken', () => {
    const said = (script: string) =>
      label(avatarVideoTask, TASKS['avatar-video'].input.parse({ script, presenter: { resKey: 'k' }, ratio: '9:16' }));
    const short = 'Meet the kettle that boils in a minute.';
    expect(said(short)).toBe(said(`${short} It is red.`));
    expect(said(Array.from({ length: 8 }, () => short).join(' '))).not.toBe(said(short));
  });
});
