// The task kind of the multi-process tests, loaded by `main.ts` through EXTRA_TASKS_MODULE (refused in production).
// It stands in for `enlarge-image` (a contract kind, so it has submit/query routes), charged one imageEnhance, and
// does small real work: a SHA-256 chain over its input. Each run first writes a row to `scale_runs` (the test
// creates that table), so the test counts runs from the database whatever process ran them. The image URL's path
// says what the run does: `ok`, `fail` (fails with an error of the table, so the task is refunded), or
// `slow?ms=N` (works N ms, stopping when its signal aborts).
import { createHash } from 'node:crypto';
import { TASKS } from '@reelsmith/contract';
import { sql } from 'drizzle-orm';
import { AppError } from '../../src/errors.js';
import type { AnyTaskDefinition, TaskDefinition } from '../../src/modules/tasks/definition.js';

type Input = (typeof TASKS)['enlarge-image']['input']['_output'];

export const SCALE_RUNS_TABLE = sql`create table scale_runs (
  task_id uuid not null, pid int not null, attempt int not null, at timestamptz not null default clock_timestamp())`;

const waitOrAbort = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const scaleTask: TaskDefinition<Input, { images: { resKey: string; url: string }[] }> = {
  kind: 'enlarge-image',
  input: TASKS['enlarge-image'].input,
  price: () => ({ sku: 'imageEnhance', count: 1 }),
  async run({ taskId, attempt, input, signal, progress, ctx, log }) {
    await ctx.db.execute(sql`insert into scale_runs (task_id, pid, attempt) values (${taskId}, ${process.pid}, ${attempt})`);
    log.info({ attempt }, 'scale task running');
    const url = new URL(input.imageUrl ?? 'http://scale.test/ok');
    await progress('parsing');
    let digest = createHash('sha256').update(url.href).digest();
    for (let i = 0; i < 20_000; i++) digest = createHash('sha256').update(digest).digest();
    if (url.pathname === '/slow') await waitOrAbort(Number(url.searchParams.get('ms') ?? 1_000), signal);
    if (url.pathname === '/fail') throw new AppError('notFound');
    await progress('rendering');
    const hex = digest.toString('hex');
    return { images: [{ resKey: `scale/${hex}`, url: `http://scale.test/${hex}` }] };
  },
};

export const taskDefinitions: AnyTaskDefinition[] = [scaleTask];
