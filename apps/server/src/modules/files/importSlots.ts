/**
 * How many URL imports run at once (docs/decisions, "Import limits"): at most IMPORTS_PER_USER of one user and
 * IMPORTS_PER_PROCESS in all, in this process. Each import holds a connection, a work file of up to the size cap
 * and a media check; the limits keep one user from taking them all. An API call past its user's limit is refused at
 * once (importsBusy, 429), since its caller is waiting on the answer; a task's import waits its turn instead. Past
 * the process limit every import waits, first come first served (an import whose user is at their limit lets the
 * ones behind it go first).
 */
import { AppError } from '../../errors.js';

export interface SlotRequest {
  /** Wait while the user is at their limit (tasks), or be refused with importsBusy (API calls). */
  wait: boolean;
  /** Stops the wait (a cancelled task); the wait then fails with the signal's reason. */
  signal?: AbortSignal | undefined;
}

interface Waiter {
  userId: string;
  grant(): void;
}

export class ImportSlots {
  private running = 0;
  /** Per user: imports running and waiting. */
  private readonly users = new Map<string, { running: number; waiting: number }>();
  private readonly queue: Waiter[] = [];

  constructor(
    readonly perUser: number,
    readonly perProcess: number,
  ) {}

  /** Resolves with the release of a slot once the import may run. */
  acquire(userId: string, { wait, signal }: SlotRequest): Promise<() => void> {
    signal?.throwIfAborted();
    const user = this.userOf(userId);
    if (!wait && user.running + user.waiting >= this.perUser) throw new AppError('importsBusy', { limit: this.perUser });
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        userId,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser(userId));
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index < 0) return;
        this.queue.splice(index, 1);
        this.forget(userId, 'waiting');
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      user.waiting++;
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Imports running now, for tests and figures. */
  get active(): number {
    return this.running;
  }

  /** Imports waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  private releaser(userId: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.forget(userId, 'running');
      this.pump();
    };
  }

  /** Starts waiting imports while there is room, in order, skipping those whose user is at their limit. */
  private pump(): void {
    for (let i = 0; i < this.queue.length && this.running < this.perProcess; ) {
      const waiter = this.queue[i] as Waiter;
      const user = this.userOf(waiter.userId);
      if (user.running >= this.perUser) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      user.waiting--;
      user.running++;
      this.running++;
      waiter.grant();
    }
  }

  private userOf(userId: string) {
    let user = this.users.get(userId);
    if (!user) {
      user = { running: 0, waiting: 0 };
      this.users.set(userId, user);
    }
    return user;
  }

  private forget(userId: string, what: 'running' | 'waiting'): void {
    const user = this.userOf(userId);
    user[what]--;
    if (user.running === 0 && user.waiting === 0) this.users.delete(userId);
  }
}

/** Runs `work` holding one of the user's import slots (the process's slots: the context's, composition.ts). */
export async function withImportSlot<T>(slots: ImportSlots, userId: string, request: SlotRequest, work: () => Promise<T>): Promise<T> {
  const release = await slots.acquire(userId, request);
  try {
    return await work();
  } finally {
    release();
  }
}
