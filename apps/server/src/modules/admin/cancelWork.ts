// What an operator's block stops (decision "An operator's block"), and the operator's `tasks cancel`: the user's
// running batches and every task of theirs still waiting or running, each refunded as a user's own cancel is.
import { and, count, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { batches, tasks } from '../../db/schema.js';
import { cancelBatch } from '../batches/service.js';
import { cancelTasksOf } from '../tasks/queue.js';

/** Cancels the user's running batches, then their unfinished tasks; answers how many tasks and batches ended. */
export async function cancelWorkOf(ctx: AppContext, userId: string): Promise<{ tasks: number; batches: number }> {
  const running = await ctx.db
    .select({ id: batches.id })
    .from(batches)
    .where(and(eq(batches.userId, userId), eq(batches.status, 'running')));
  const unfinished = () =>
    ctx.db
      .select({ n: count() })
      .from(tasks)
      .where(and(eq(tasks.userId, userId), inArray(tasks.status, ['SUBMITTED', 'IN_PROGRESS'])))
      .then(([row]) => row?.n ?? 0);
  const before = await unfinished();
  // A batch's rows are cancelled first, with their tasks, so its driver submits nothing more.
  for (const { id } of running) await cancelBatch(ctx, userId, id, 'en');
  await cancelTasksOf(ctx, new Map(ctx.tasks.map((d) => [d.kind, d])), userId);
  return { tasks: Math.max(0, before - (await unfinished())), batches: running.length };
}
