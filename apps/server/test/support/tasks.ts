import { TASKS } from '@reelsmith/contract';
import { AppError } from '../../src/errors.js';
import type { TaskDefinition, TaskJob } from '../../src/modules/tasks/definition.js';

/** The behaviours of the test kind, chosen by the path of the submitted imageUrl (http://test.invalid/<behaviour>). */
export type Behaviour = 'ok' | 'app-error' | 'bug' | 'hang' | 'slow' | 'ignore-signal' | 'partial';

export const imageUrlFor = (behaviour: Behaviour, n = 0) => `http://test.invalid/${behaviour}?n=${n}`;
const behaviourOf = (url: string | undefined): Behaviour => new URL(url ?? 'http://x/ok').pathname.slice(1) as Behaviour;

const waitForAbort = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

type Input = (typeof TASKS)['enlarge-image']['input']['_output'];

/**
 * A stand-in kind for engine tests: `enlarge-image`'s input and routes, charged one imageEnhance per task, whose
 * work does what the image URL says, and counts each run per task id (a task must never run twice at once).
 */
export function testTaskKind() {
  const runs = new Map<string, number>();
  const failedHooks: string[] = [];
  const definition: TaskDefinition<Input, { images: { resKey: string; url: string }[] }> = {
    kind: 'enlarge-image',
    input: TASKS['enlarge-image'].input,
    price: () => ({ sku: 'imageEnhance', count: 1 }),
    timeoutMs: 2_000,
    async run(job: TaskJob<Input>) {
      runs.set(job.taskId, (runs.get(job.taskId) ?? 0) + 1);
      await job.progress('parsing');
      switch (behaviourOf(job.input.imageUrl)) {
        case 'app-error':
          throw new AppError('notFound');
        case 'bug':
          throw new Error('a bug in the handler');
        case 'hang':
          return waitForAbort(job.signal);
        case 'partial':
          // One output made and shown, then the work waits (to be cancelled).
          await job.partial({ images: [{ resKey: `k/${job.taskId}/1`, url: `http://files.test/${job.taskId}/1` }] });
          return waitForAbort(job.signal);
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, 300));
          break;
        case 'ignore-signal':
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          break;
        case 'ok':
          break;
      }
      await job.progress('rendering');
      return { images: [{ resKey: `k/${job.taskId}`, url: `http://files.test/${job.taskId}` }] };
    },
    // As a kind re-signs its links when read: the stored result stays as it was written.
    view: (result) => ({ images: result.images.map((image) => ({ ...image, url: `${image.url}?fresh` })) }),
    async failed(_ctx, task) {
      failedHooks.push(task.taskId);
    },
  };
  return { definition, runs, failedHooks };
}
