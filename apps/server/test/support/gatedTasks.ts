// A task kind whose work a test holds at a gate, to force the interleavings of cancel and completion instead of
// hoping for them: the work stores its output as a generated library file, then waits at its gate until the test
// lets it go, and only then answers its result. Which gate a task waits at is chosen by its input's image URL
// (http://test.invalid/gated?n=<name>), known before the task id is.
import { randomUUID } from 'node:crypto';
import { TASKS } from '@reelsmith/contract';
import type { AppContext } from '../../src/context.js';
import { files } from '../../src/db/schema.js';
import { fileKey } from '../../src/modules/files/storage/keys.js';
import type { TaskDefinition, TaskJob } from '../../src/modules/tasks/definition.js';

type Input = (typeof TASKS)['enlarge-image']['input']['_output'];
type Result = { images: { resKey: string; url: string }[] };

export const gatedImageUrl = (name: string) => `http://test.invalid/gated?n=${encodeURIComponent(name)}`;
const gateOf = (input: Input) => new URL(input.imageUrl ?? 'http://x/').searchParams.get('n') ?? '';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Named gates: the work says it reached one and waits there until the test releases it. */
export class Gates {
  readonly #reached = new Map<string, Deferred>();
  readonly #released = new Map<string, Deferred>();

  #of(map: Map<string, Deferred>, name: string) {
    let d = map.get(name);
    if (!d) {
      d = deferred();
      map.set(name, d);
    }
    return d;
  }

  /** The work's side: says it got here, then waits until the test releases the gate. */
  async pass(name: string): Promise<void> {
    this.#of(this.#reached, name).resolve();
    await this.#of(this.#released, name).promise;
  }

  /** Resolves once the work has reached the gate. */
  reached(name: string): Promise<void> {
    return this.#of(this.#reached, name).promise;
  }

  release(name: string): void {
    this.#of(this.#released, name).resolve();
  }
}

/** The output a gated task stores: a real generated file of the user's library, its object in the file store. */
async function storeOutput(ctx: AppContext, job: TaskJob<Input>) {
  const fileId = randomUUID();
  const resKey = fileKey(job.userId, fileId, 'png');
  await ctx.storage.put(resKey, Buffer.from('gated output'), { contentType: 'image/png' });
  await ctx.db.insert(files).values({
    id: fileId,
    userId: job.userId,
    name: `gated-${job.taskId.slice(0, 8)}.png`,
    resKey,
    type: 'image',
    format: 'png',
    mime: 'image/png',
    size: 12,
    width: 16,
    height: 16,
    source: 'generated',
    status: 'completed',
  });
  return resKey;
}

/**
 * `enlarge-image`'s input and routes, charged one imageEnhance: the work stores its output, then waits at gate
 * `<n>:done` (the work is finished, its completion not yet written) until released, even when the task is
 * cancelled meanwhile, as work that has already finished would.
 */
export function gatedTaskKind() {
  const gates = new Gates();
  const definition: TaskDefinition<Input, Result> = {
    kind: 'enlarge-image',
    input: TASKS['enlarge-image'].input,
    price: () => ({ sku: 'imageEnhance', count: 1 }),
    async run(job) {
      await job.progress('parsing');
      const resKey = await storeOutput(job.ctx, job);
      await job.progress('rendering');
      await gates.pass(`${gateOf(job.input)}:done`);
      return { images: [{ resKey, url: `http://files.test/${resKey}` }] };
    },
  };
  return { definition, gates, doneGate: (name: string) => `${name}:done` };
}
