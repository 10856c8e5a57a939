// The routes of every task kind (design "Contract details"): POST /task/v1/<kind>/submit → {taskId, status},
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
import type { TaskRow } from '../../db/schema.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { parseInput } from '../../http/route.js';
import type { StoredTaskError } from './definition.js';
import { estimateOf, type TaskEstimate } from './estimate.js';
import { cancelTask, readTask, submitTask } from './queue.js';

const IdempotencyKey = z.string().trim().min(1).max(200).optional();

/** A stored error's message in the caller's language. */
export const taskErrorMessage = (error: StoredTaskError, locale: Locale): string =>
  'key' in error ? errorMessage(error.key, locale, error.params) : error.message;

/** The stored error as the query answers it: JSON text `{"message": …}` in the caller's language. */
const errorText = (error: StoredTaskError, locale: Locale): string => JSON.stringify({ message: taskErrorMessage(error, locale) });

/**
 * What a task query answers (design "Contract details"); `result` is the stored result as the kind presents it, and
 * `estimate` how long a task still under way should take (decision "Progress estimates").
 */
export function taskState(task: TaskRow, locale: Locale, result: unknown = task.result, estimate?: TaskEstimate) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.progress && { progress: task.progress as ProgressStage }),
    ...estimate,
    ...(task.status === 'FAILURE' && task.error ? { error: errorText(task.error as StoredTaskError, locale) } : {}),
    // A running task answers what it has made so far (TaskJob.partial), as the contract's partial result allows.
    ...((task.status === 'SUCCESS' || task.status === 'IN_PROGRESS') && (result as object)),
  };
}

const localeOfRequest = (req: FastifyRequest) => localeOf(req.headers['accept-language']);
const isContractKind = (kind: string): kind is TaskKind => (TaskKinds.options as readonly string[]).includes(kind);

export const tasksModule = defineModule((_api, { route, ctx }) => {
  const byKind = new Map(ctx.tasks.map((d) => [d.kind, d]));
  for (const definition of ctx.tasks) {
    const { kind } = definition;
    if (!isContractKind(kind)) continue;
    route(taskSubmit(kind), async ({ user, body, req }) => {
      const idempotencyKey = parseInput(IdempotencyKey, req.headers['idempotency-key'], req);
      // The kinds made for a project (link to video) name it in their input; the others have none.
      const projectId = 'projectId' in body && typeof body.projectId === 'string' ? body.projectId : undefined;
      const task = await submitTask(ctx, definition, user, body, { idempotencyKey, projectId });
      return { taskId: task.id, status: task.status };
    });
    const query = taskQuery(kind);
    route(query, async ({ user, query: { taskId }, req }) => {
      const task = await readTask(ctx.db, user.userId, kind, taskId);
      const hasResult = (task.status === 'SUCCESS' || task.status === 'IN_PROGRESS') && task.result !== null;
      const [result, estimate] = await Promise.all([
        hasResult && definition.view ? definition.view(task.result, ctx) : task.result,
        estimateOf(ctx.db, task),
      ]);
      // The kind's result is typed by its definition only as stored; the contract's schema of this kind's answer
      // checks it and gives it its type.
      return query.data.parse(taskState(task, localeOfRequest(req), result, estimate));
    });
    route(taskCancel(kind), async ({ user, body, req }) => {
      const task = await cancelTask(ctx, byKind, user.userId, kind, body.taskId);
      return taskState(task, localeOfRequest(req));
    });
  }
});
