/** What a periodic job logs through: a failed run is logged, never thrown, and the next run goes ahead. */
export interface PeriodicLog {
  error(obj: object, msg: string): void;
}

/**
 * Runs `job` now and then every interval until stopped; a run still going when the next is due is not started
 * twice. The answer stops it and waits for a run in flight, so what the job uses can be closed after it.
 */
export function runPeriodically(job: () => Promise<unknown>, intervalMs: number, log: PeriodicLog, failure: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= job()
      .then(
        () => undefined,
        (err: unknown) => log.error({ err }, failure),
      )
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
