// Group commit for charges: the charges this process makes while one batch is being written wait and go together
// in the next one, as a single statement (points_charge_many, migration 0004) with one commit. A commit waits for
// the write-ahead log to reach the disk, which is most of a charge's time; sharing it is what lets one process
// charge thousands of times a second. Each charge in a batch still runs alone in its own subtransaction: one that is
// refused changes nothing and does not disturb the others.
//
// Idle, a charge goes at once (a batch of one), so it waits no longer than before. At most two batches are in flight
// per database; each locks its users' accounts in one order (sorted by user id), so two batches never wait for each
// other in a circle. A charge that still meets a deadlock (another kind of transaction holding two accounts) runs
// again in a later batch.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { queryRows } from '../../db/client.js';

/** One charge as points_charge_many takes it; `task` is the row of the task it pays for, inserted with it. */
export interface ChargeItem {
  userId: string;
  sku: string;
  count: number;
  operationType: string;
  taskId: string;
  key: string;
  now: string;
  task?: Record<string, unknown>;
  /** Further SKUs the same task pays for, charged with it or not at all (migration 0019). */
  also?: { sku: string; count: number; operationType: string }[];
}

/**
 * What became of one charge: written (entry null for a free SKU; `charged` the credits of it and its `also`), or
 * refused with the SQLSTATE and texts.
 */
export type ChargeOutcome =
  | { entry: Record<string, unknown> | null; task: Record<string, unknown> | null; charged?: number }
  | { code: string; message: string; detail: string | null };

interface Waiting {
  item: ChargeItem;
  resolve(outcome: ChargeOutcome): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 200;
const MAX_IN_FLIGHT = 2;
const DEADLOCK = '40P01';

class GroupCommit {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(private readonly db: Db) {}

  run(item: ChargeItem): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.flush();
    });
  }

  private flush() {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) {
      const batch = this.waiting
        .splice(0, MAX_BATCH)
        .sort((a, b) => (a.item.userId < b.item.userId ? -1 : a.item.userId > b.item.userId ? 1 : 0));
      this.inFlight += 1;
      void this.write(batch).finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
    }
  }

  private async write(batch: Waiting[]) {
    let outcomes: ChargeOutcome[];
    try {
      const [row] = await queryRows<{ outcomes: ChargeOutcome[] | string }>(
        this.db,
        sql`select points_charge_many(${JSON.stringify(batch.map((w) => w.item))}::jsonb) as outcomes`,
      );
      const answer = row?.outcomes;
      outcomes = typeof answer === 'string' ? (JSON.parse(answer) as ChargeOutcome[]) : (answer ?? []);
    } catch (error) {
      // The statement is one transaction: it failed whole, nothing of the batch was written.
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i];
      if (!outcome) w.reject(new Error('points_charge_many answered fewer outcomes than charges'));
      else if ('code' in outcome && outcome.code === DEADLOCK) this.waiting.push(w);
      else w.resolve(outcome);
    });
  }
}

const groups = new WeakMap<Db, GroupCommit>();

/** Runs a charge in the next batch of this database's group commit. */
export function chargeInGroup(db: Db, item: ChargeItem): Promise<ChargeOutcome> {
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group.run(item);
}
