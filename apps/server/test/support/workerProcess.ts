// A worker in a process of its own, for the crash and scale-out tests: runs the test kind against the database
// DATABASE_URL names, prints `ready` once it works and `ran <taskId>` each time it starts a task. With
// HANG=1 every task it starts hangs, so the test can kill it with SIGKILL in the middle of one.
import { openDatabase } from '../../src/db/client.js';
import type { TaskJob } from '../../src/modules/tasks/definition.js';
import { startWorker } from '../../src/modules/tasks/worker.js';
import { testApp } from './app.js';
import { testTaskKind } from './tasks.js';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const { definition } = testTaskKind();
const run = definition.run.bind(definition);
definition.run = async (job: TaskJob<Parameters<typeof run>[0]['input']>) => {
  console.log(`ran ${job.taskId}`);
  if (process.env.HANG === '1') await new Promise(() => {});
  return run(job);
};
const { ctx } = await testApp(database.db, {}, [definition]);
const silent = { info() {}, warn() {}, error() {} };
startWorker(ctx, [definition], { concurrency: 3, leaseMs: Number(process.env.LEASE_MS ?? 1_000), pollMs: 50, log: silent });
console.log('ready');
