// What an attempt made, removed when its result cannot be the task's (decision "Cancel is decided with completion"):
// the task was cancelled and refunded, or stopped, or another worker took it over, while the work finished. Every
// kind stores its outputs as generated files of the user's library and names them by `resKey` in its result;
// kept, a cancelled task's outputs would be work given away for free.
import { and, eq, gte, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { files } from '../../db/schema.js';

/** Every `resKey` string the result names, at any depth. */
function resKeysOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) resKeysOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      if (name === 'resKey' && typeof item === 'string') into.add(item);
      else resKeysOf(item, into);
    }
  }
  return into;
}

/**
 * Removes the generated files an unrecorded result names: their rows, then their objects. Only the task's user's
 * files made since the task was submitted: a result never removes an input, which existed before.
 */
export async function discardOutputs(ctx: AppContext, task: { userId: string; createdAt: Date }, result: unknown): Promise<number> {
  const keys = [...resKeysOf(result)];
  if (!keys.length) return 0;
  const removed = await ctx.db
    .delete(files)
    .where(
      and(eq(files.userId, task.userId), eq(files.source, 'generated'), inArray(files.resKey, keys), gte(files.createdAt, task.createdAt)),
    )
    .returning({ resKey: files.resKey, thumbKey: files.thumbKey });
  await ctx.storage.delete(removed.flatMap((row) => [row.resKey, row.thumbKey].filter((key): key is string => key !== null)));
  return removed.length;
}
