// A test's own hold on a task's row in PostgreSQL, to line up the statements that race for it in a known order:
// the holder locks the row in a transaction, the racers' updates queue behind it (PostgreSQL serves the waiters of
// one row in the order they came), and an observer on another connection sees how many are waiting.
import pg from 'pg';

export interface RowLock {
  /** How many updates of the tasks table are waiting for a lock now. */
  waiting(): Promise<number>;
  /** Ends the holder's transaction: the queued updates go, first come first served. */
  release(): Promise<void>;
}

export async function holdTaskRow(url: string, taskId: string): Promise<RowLock> {
  const holder = new pg.Client({ connectionString: url });
  // A separate connection: a transaction sees the activity of the others as of its first look at it.
  const observer = new pg.Client({ connectionString: url });
  await Promise.all([holder.connect(), observer.connect()]);
  await holder.query('begin');
  const locked = await holder.query('select id from tasks where id = $1 for update', [taskId]);
  if (locked.rowCount !== 1) throw new Error(`no task ${taskId} to lock`);
  return {
    async waiting() {
      const { rows } = await observer.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "tasks"%'`,
      );
      return rows[0]?.n ?? 0;
    },
    async release() {
      await holder.query('commit');
      await Promise.all([holder.end(), observer.end()]);
    },
  };
}
