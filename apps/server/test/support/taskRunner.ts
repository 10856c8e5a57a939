// A task as its user meets it: submitted over HTTP, then its query asked until it ends. One worker is started on
// the first run and stopped with `stop` (an afterEach), so each test's tasks run on a worker of its own.
import { type TaskKind, taskSubmitPath } from '@reelsmith/contract';
import type { AppContext } from '../../src/context.js';
import { startWorker, type Worker } from '../../src/modules/tasks/worker.js';
import type { Browser } from './app.js';

const silent = { info() {}, warn() {}, error() {} };

export interface TaskEnd {
  taskId: string;
  status: string;
  error?: string;
}

export function taskRunner(t: { ctx: AppContext }) {
  let worker: Worker | undefined;
  return {
    async run<A extends object>(browser: Browser, kind: TaskKind, body: object): Promise<A & TaskEnd> {
      const { taskId } = (await browser.ok('POST', taskSubmitPath(kind), { body })) as { taskId: string };
      worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
      for (;;) {
        const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, { query: { taskId } })) as A & TaskEnd;
        if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return { ...answer, taskId };
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    },
    async stop() {
      await worker?.stop();
      worker = undefined;
    },
  };
}
