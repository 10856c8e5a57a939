/**
 * Runs tasks `concurrency` at a time, heaviest first (longest-processing-time order), so the cores finish
 * together instead of one waiting on a long piece started last. The first failure rejects once all stop.
 */
export interface Task {
  weight: number;
  run: () => Promise<unknown>;
}

export async function runAll(tasks: Task[], concurrency: number): Promise<void> {
  const queue = [...tasks].sort((a, b) => b.weight - a.weight);
  let failure: unknown;
  const worker = async () => {
    for (let task = queue.shift(); task && failure === undefined; task = queue.shift()) {
      await task.run().catch((error: unknown) => {
        failure ??= error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure !== undefined) throw failure;
}
