// What "changes nothing" is checked against: every table of the database (its row count and a digest of all its
// rows, so an update shows as well as an insert), every user's credit balance, the ledger's sum, and every file
// in the data directory (the file store and the work directories of ingest).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AppContext } from '../../../src/context.js';
import { queryRows } from '../../../src/db/client.js';

export interface Snapshot {
  tables: Record<string, { rows: number; digest: string }>;
  balances: Record<string, number>;
  ledgerSum: number;
  /** `path size` of every file under DATA_DIR. */
  files: string[];
}

let tableNames: string[] | undefined;

async function tablesOf(ctx: AppContext): Promise<string[]> {
  tableNames ??= (
    await queryRows<{ name: string }>(
      ctx.db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((r) => r.name);
  return tableNames;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${relative(dir, path)} ${statSync(path).size}`;
    })
    .sort();
}

export async function snapshot(ctx: AppContext): Promise<Snapshot> {
  const names = await tablesOf(ctx);
  const perTable = sql.join(
    names.map(
      (name) =>
        sql`select ${name} as name, count(*) as rows,
            md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(name)} t`,
    ),
    sql` union all `,
  );
  const tableRows = await queryRows<{ name: string; rows: string | number; digest: string }>(ctx.db, perTable);
  const balances = await queryRows<{ user_id: string; available_points: number }>(
    ctx.db,
    sql`select user_id, available_points from points_accounts order by user_id`,
  );
  const [ledger] = await queryRows<{ sum: string | number | null }>(ctx.db, sql`select sum(points_change) as sum from points_ledger`);
  return {
    tables: Object.fromEntries(tableRows.map((r) => [r.name, { rows: Number(r.rows), digest: r.digest }])),
    balances: Object.fromEntries(balances.map((r) => [r.user_id, Number(r.available_points)])),
    ledgerSum: Number(ledger?.sum ?? 0),
    files: filesUnder(ctx.settings.dataDir),
  };
}

/** Fails, naming what changed, unless the two snapshots are the same; answers whether they were. */
export function expectUnchanged(before: Snapshot, after: Snapshot, what: string): void {
  expect(after, `${what} changed the database or the file store`).toEqual(before);
}

/** Rows in all tables: the size of the world the attacks ran against, for the figures. */
export const rowsIn = (s: Snapshot) => Object.values(s.tables).reduce((sum, t) => sum + t.rows, 0);
