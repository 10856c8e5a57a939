// How long a waiting or running task should take (decision "Progress estimates"): the median time, from submission
// to success, of the last tasks of its kind and workload that succeeded on this server, whoever submitted them. A
// measure of the machine, not of anyone's work: only durations leave the table.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.js';
import type { TaskRow } from '../../db/schema.js';

/** The successes a median is taken of: enough to shrug off one slow task, few enough to follow a changed machine. */
const RECENT = 20;
/** Fewer successes than this say too little: no estimate is better than a made-up one. */
const FEWEST = 3;
/** How long a median stands in this process: every poll of every running task asks for one. */
const KEPT_MS = 30_000;

export interface TaskEstimate {
  /** The median whole seconds a task like this one took from submission to success. */
  expectedSeconds: number;
  /** Whole seconds since this one was submitted. */
  elapsedSeconds: number;
}

/** The median seconds of the recent successes of a kind and workload; null with too few of them. */
async function medianSeconds(db: Db, kind: string, workload: string | null): Promise<number | null> {
  // Walks tasks_finished_by_workload_idx backwards from the newest success: at most RECENT rows read.
  const [row] = await queryRows<{ finished: number; median: number | null }>(
    db,
    sql`select count(*)::int as finished, percentile_cont(0.5) within group (order by seconds) as median
      from (
        select extract(epoch from finished_at - created_at)::float8 as seconds from tasks
        where kind = ${kind} and coalesce(workload, '') = ${workload ?? ''} and status = 'SUCCESS' and batch_row_id is null
        order by finished_at desc
        limit ${RECENT}
      ) recent`,
  );
  return row && row.finished >= FEWEST && row.median !== null ? Math.round(Number(row.median)) : null;
}

const kept = new WeakMap<Db, Map<string, { until: number; median: Promise<number | null> }>>();

/** The median, asked of the database at most once per KEPT_MS per kind and workload (the answer shared meanwhile). */
function keptMedian(db: Db, kind: string, workload: string | null, now: number): Promise<number | null> {
  const medians = kept.get(db) ?? new Map();
  kept.set(db, medians);
  const key = JSON.stringify([kind, workload]);
  const found = medians.get(key);
  if (found && found.until > now) return found.median;
  const median = medianSeconds(db, kind, workload);
  medians.set(key, { until: now + KEPT_MS, median });
  // A failed question is asked again at the next poll rather than kept.
  median.catch(() => medians.delete(key));
  return median;
}

/**
 * The estimate of a task still waiting or running; undefined once it has ended, for a batch's task (its rows wait
 * behind every interactive task, by design: decision "Batch"), or without enough history.
 */
export async function estimateOf(db: Db, task: TaskRow, now = Date.now()): Promise<TaskEstimate | undefined> {
  if ((task.status !== 'SUBMITTED' && task.status !== 'IN_PROGRESS') || task.batchRowId !== null) return undefined;
  const expectedSeconds = await keptMedian(db, task.kind, task.workload, now);
  if (expectedSeconds === null) return undefined;
  return { expectedSeconds, elapsedSeconds: Math.max(0, Math.floor((now - task.createdAt.getTime()) / 1000)) };
}
