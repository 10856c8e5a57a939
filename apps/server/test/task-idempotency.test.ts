// An Idempotency-Key names one request (decision "An Idempotency-Key names one request"): sent again with the same body
// it answers the first task and charges nothing; with a different body, or for another kind of task, it is refused with
// a clear message and nothing is written, as Stripe does.
import { TASKS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tasks } from '../src/db/schema.js';
import { setPrice } from '../src/modules/points/prices.js';
import type { AnyTaskDefinition } from '../src/modules/tasks/definition.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember } from './support/files.js';
import { availableOf } from './support/points.js';
import { imageUrlFor, testTaskKind } from './support/tasks.js';

const PRICE = 3;
const REUSED = {
  en: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  zh: '此 Idempotency-Key 已用于另一个不同的请求。新的请求请使用新的键。',
  'pt-BR': 'Esta Idempotency-Key já foi usada em outra solicitação diferente. Use uma chave nova para uma nova solicitação.',
};

describe.each(testDatabases())('Idempotency-Key reuse on $name', (testDb) => {
  const enlarge = testTaskKind().definition;
  // A second kind, to reuse a key across kinds.
  const removeBackground = { ...enlarge, kind: 'remove-background', input: TASKS['remove-background'].input } as AnyTaskDefinition;
  const t = appOn(testDb, () => ({}), [enlarge, removeBackground]);

  const submit = (browser: Browser, kind: string, body: unknown, key: string, locale = 'en') =>
    browser.call('POST', `/task/v1/${kind}/submit`, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'idempotency-key': key, 'accept-language': locale },
    });

  async function member() {
    await setPrice(t.ctx.db, 'imageEnhance', PRICE);
    const { browser, userId } = await activeMember(t, 'idempotent');
    return { browser, userId, before: await availableOf(t.ctx.db, userId) };
  }
  const tasksOf = (userId: string) => t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId));

  it('answers the first task to the same key with the same body, however its JSON is spelt, charging once', async () => {
    const { browser, userId, before } = await member();
    const first = await submit(browser, 'enlarge-image', { imageUrl: imageUrlFor('ok', 1), scale: 2 }, 'click-same');
    expect(first.body.code).toBe(0);
    const { taskId } = first.body.data as { taskId: string };
    for (const body of [
      { imageUrl: imageUrlFor('ok', 1), scale: 2 },
      { scale: 2, imageUrl: imageUrlFor('ok', 1) },
      // The same request once its defaults are applied: scale is 2 when absent.
      `{ "imageUrl" : "${imageUrlFor('ok', 1)}" }`,
    ]) {
      const again = await submit(browser, 'enlarge-image', body, 'click-same');
      expect(again.body).toMatchObject({ code: 0, data: { taskId } });
    }
    expect(await tasksOf(userId)).toHaveLength(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
  });

  it('refuses the same key with a different body, in the caller’s language, writing and charging nothing', async () => {
    const { browser, userId, before } = await member();
    const first = await submit(browser, 'enlarge-image', { imageUrl: imageUrlFor('ok', 2) }, 'click-1');
    expect(first.body.code).toBe(0);
    for (const [locale, message] of Object.entries(REUSED)) {
      for (const body of [{ imageUrl: imageUrlFor('ok', 3) }, { imageUrl: imageUrlFor('ok', 2), scale: 4 }]) {
        const reused = await submit(browser, 'enlarge-image', body, 'click-1', locale);
        expect(reused.status).toBe(200);
        expect(reused.body).toEqual({ code: 409, message, data: null });
      }
    }
    const [task] = await tasksOf(userId);
    expect(await tasksOf(userId)).toHaveLength(1);
    expect(task?.input).toEqual({ imageUrl: imageUrlFor('ok', 2), scale: 2, n: 1 });
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
  });

  it('refuses a key used for one kind of task when it is sent with another kind, even with the same body', async () => {
    const { browser, userId, before } = await member();
    const body = { imageUrl: imageUrlFor('ok', 4) };
    expect((await submit(browser, 'enlarge-image', body, 'click-kind')).body.code).toBe(0);
    const reused = await submit(browser, 'remove-background', body, 'click-kind');
    expect(reused.body).toEqual({ code: 409, message: REUSED.en, data: null });
    expect(await tasksOf(userId)).toHaveLength(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
  });

  it('lets one of several requests with one key and different bodies at the same moment win; the same body answers it, the others are refused', async () => {
    const { browser, userId, before } = await member();
    const bodies = [1, 2, 1, 2, 1, 2, 1, 2].map((n) => ({ imageUrl: imageUrlFor('ok', 100 + n) }));
    const answers = await Promise.all(bodies.map((body) => submit(browser, 'enlarge-image', body, 'click-race')));
    const written = await tasksOf(userId);
    expect(written).toHaveLength(1);
    const [task] = written as [(typeof written)[number]];
    const winner = (task.input as { imageUrl: string }).imageUrl;
    answers.forEach((answer, i) => {
      if (bodies[i]?.imageUrl === winner) expect(answer.body).toMatchObject({ code: 0, data: { taskId: task.id } });
      else expect(answer.body).toEqual({ code: 409, message: REUSED.en, data: null });
    });
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
  });
});
