// The routes of every task kind (design §8): POST /task/v1/<kind>/submit → {taskId, status},
// GET /task/v1/<kind>/query?taskId= → the task's state and, on SUCCESS, its result, and
// POST /task/v1/<kind>/cancel. A kind supplies only its definition; this builds the three calls from it.
import {
  errorMessage,
  type Locale,
  type ProgressStage,
  type TaskKind,
  TaskKind as TaskKinds,
  taskCancel,
  taskQuery,
  taskSubmit,
} from '@reelsmith/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { TaskRow } from '../../db/schema.js';
import { localeOf } from '../../http/locale.js';
import { parseInput, type Router } from '../../http/route.js';
import type { AnyTaskDefinition, StoredTaskError } from './definition.js';
import { cancelTask, readTask, submitTask } from './queue.js';

const IdempotencyKey = z.string().trim().min(1).max(200).optional();

/** A stored error's message in the caller's language. */
export const taskErrorMessage = (error: StoredTaskError, locale: Locale): string =>
  'key' in error ? errorMessage(error.key, locale, error.params) : error.message;

/** The stored error as the query answers it: JSON text `{"message": …}` in the caller's language. */
const errorText = (error: StoredTaskError, locale: Locale): string => JSON.stringify({ message: taskErrorMessage(error, locale) });

/** What a task query answers (design §8); `result` is the stored result as the kind presents it. */
export function taskState(task: TaskRow, locale: Locale, result: unknown = task.result) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.progress && { progress: task.progress as ProgressStage }),
    ...(task.status === 'FAILURE' && task.error ? { error: errorText(task.error as StoredTaskError, locale) } : {}),
    ...(task.status === 'SUCCESS' && (result as object)),
  };
}

const localeOfRequest = (req: FastifyRequest) => localeOf(req.headers['accept-language']);
const isContractKind = (kind: string): kind is TaskKind => (TaskKinds.options as readonly string[]).includes(kind);

export function registerTaskRoutes(route: Router, ctx: AppContext, definitions: readonly AnyTaskDefinition[]) {
  const byKind = new Map(definitions.map((d) => [d.kind, d]));
  for (const definition of definitions) {
    const { kind } = definition;
    if (!isContractKind(kind)) continue;
    route(taskSubmit(kind), async ({ user, body, req }) => {
      const idempotencyKey = parseInput(IdempotencyKey, req.headers['idempotency-key'], req);
      const projectId = (body as { projectId?: string }).projectId;
      const task = await submitTask(ctx, definition, user, body, { idempotencyKey, projectId });
      return { taskId: task.id, status: task.status };
    });
    route(taskQuery(kind), async ({ user, query, req }) => {
      const task = await readTask(ctx.db, user.userId, kind, query.taskId);
      const result = task.status === 'SUCCESS' && definition.view ? await definition.view(task.result, ctx) : task.result;
      return taskState(task, localeOfRequest(req), result) as never;
    });
    route(taskCancel(kind), async ({ user, body, req }) => {
      const task = await cancelTask(ctx, byKind, user.userId, kind, body.taskId);
      return taskState(task, localeOfRequest(req));
    });
  }
}
