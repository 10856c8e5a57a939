// A kind's writes at completion (TaskJob.atCompletion, decision "Previews as rows"): they commit with the task's
// SUCCESS, are not made when the result is not the task's, and one that fails leaves the task as it was.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { projects, tasks } from '../src/db/schema.js';
import { completeTask } from '../src/modules/tasks/queue.js';
import { testDatabases } from './support/databases.js';
import { databaseOn, newUser } from './support/points.js';

describe.each(testDatabases())('writes at task completion on $name', (testDb) => {
  const t = databaseOn(testDb);

  /** A task held by worker `w`, and a project a write may create. */
  async function heldTask(cancelRequested = false) {
    const userId = await newUser(t.db);
    const id = randomUUID();
    await t.db.insert(tasks).values({
      id,
      userId,
      kind: 'link-video',
      input: {},
      status: 'IN_PROGRESS',
      leaseOwner: 'w',
      leaseUntil: sql`now() + interval '1 minute'`,
      ...(cancelRequested && { cancelRequested: sql`now()` }),
    });
    const write = async (tx: Db) => {
      await tx.insert(projects).values({ id, userId, name: 'made at completion' });
    };
    return { id, userId, write };
  }
  const statusOf = async (id: string) => (await t.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, id)))[0]?.status;
  const projectMade = async (id: string) => (await t.db.select().from(projects).where(eq(projects.id, id))).length === 1;

  it('commits the writes with the success', async () => {
    const task = await heldTask();
    expect(await completeTask(t.db, task.id, 'w', { ok: true }, { ok: true }, [task.write])).toBe('completed');
    expect(await statusOf(task.id)).toBe('SUCCESS');
    expect(await projectMade(task.id)).toBe(true);
  });

  it('makes none of them when the result is not the task’s (cancelled, or held by another worker)', async () => {
    const cancelled = await heldTask(true);
    expect(await completeTask(t.db, cancelled.id, 'w', {}, {}, [cancelled.write])).toBe('cancelled');
    expect(await projectMade(cancelled.id)).toBe(false);
    const lost = await heldTask();
    expect(await completeTask(t.db, lost.id, 'another worker', {}, {}, [lost.write])).toBe('lost');
    expect(await projectMade(lost.id)).toBe(false);
    expect(await statusOf(lost.id)).toBe('IN_PROGRESS');
  });

  it('rolls the success and the writes before it back when a write fails', async () => {
    const task = await heldTask();
    const failing = async () => {
      throw new Error('the row could not be written');
    };
    await expect(completeTask(t.db, task.id, 'w', {}, {}, [task.write, failing])).rejects.toThrow('the row could not be written');
    expect(await statusOf(task.id)).toBe('IN_PROGRESS');
    expect(await projectMade(task.id)).toBe(false);
  });
});
