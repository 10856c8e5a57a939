// Benchmark of the credits ledger: charges per second from parallel clients, each charging its own user
// through `charge` (points_charge: account lock, replay check, lots, ledger row, account update; the charges
// made while a batch is being written share the next batch's commit: modules/points/groupCommit.ts),
// on PostgreSQL and on PGlite; then the ledger audit, whose findings are the drift (0: every balance matches
// its rows), and a check that the credits used equal the charges made times the price.
// Run from the repo root: node bench/ledger.mjs
// BENCH_DURATION (s per database, default 10), BENCH_CLIENTS (default 50) and BENCH_DATABASE_URL (the
// PostgreSQL server; default TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test) change the run.
// PostgreSQL gets a fresh database beside the one named, dropped afterwards.
import { randomBytes, randomUUID } from 'node:crypto';
import { register } from 'tsx/esm/api';

register();
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrate } = await import('../apps/server/src/db/migrate.ts');
const { users } = await import('../apps/server/src/db/schema.ts');
const { charge, grant } = await import('../apps/server/src/modules/points/ledger.ts');
const { auditLedger } = await import('../apps/server/src/modules/points/audit.ts');
const { readAccount } = await import('../apps/server/src/modules/points/queries.ts');
const { priceOf } = await import('../apps/server/src/modules/points/prices.ts');

const duration = Number(process.env.BENCH_DURATION || 10);
const clients = Number(process.env.BENCH_CLIENTS || 50);
const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SKU = 'imageGen';
/** Enough for any run: a client never runs out, so every attempt is a real charge. */
const BALANCE = 1_000_000_000;

async function run(label, database) {
  await migrate(database);
  const { db } = database;
  const ids = Array.from({ length: clients }, () => randomUUID());
  await db.insert(users).values(ids.map((id) => ({ id, email: `${id}@bench.example`, username: id.slice(0, 8), status: 'ACTIVE' })));
  for (const id of ids) await grant(db, id, BALANCE, 'RECHARGE', { key: 'bench' });

  let charged = 0;
  const client = async (i, until) => {
    while (Date.now() < until) {
      const taskId = randomUUID();
      await charge(db, ids[i], SKU, 1, { taskId, key: taskId });
      charged += 1;
    }
  };
  // A short warm-up, so the figure is the steady state rather than V8 compiling and pools connecting.
  await Promise.all(ids.map((_, i) => client(i, Date.now() + 1000)));
  const before = charged;
  const started = performance.now();
  await Promise.all(ids.map((_, i) => client(i, Date.now() + duration * 1000)));
  const seconds = (performance.now() - started) / 1000;
  const measured = charged - before;

  const problems = await auditLedger(db);
  const accounts = await Promise.all(ids.map((id) => readAccount(db, id)));
  const used = accounts.reduce((sum, a) => sum + a.usedPoints, 0);
  const expected = charged * (await priceOf(db, SKU));
  console.log(
    `${label}: ${Math.round(measured / seconds)} charges/s (${measured} in ${seconds.toFixed(1)} s, ${clients} clients); ` +
      `drift ${problems.length}${problems.length ? ` (${problems.slice(0, 3).join('; ')})` : ''}; ` +
      `credits used ${used}, charges × price ${expected}${used === expected ? '' : ' MISMATCH'}`,
  );
}

const name = `reelsmith_bench_${randomBytes(6).toString('hex')}`;
const server = await openDatabase({ databaseUrl: serverUrl });
await server.client.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
try {
  const postgres = await openDatabase({ databaseUrl: url.href });
  try {
    await run('PostgreSQL', postgres);
  } finally {
    await postgres.close();
  }
} finally {
  await server.client.query(`drop database if exists ${name} with (force)`);
  await server.close();
}

const pglite = await openDatabase({});
try {
  await run('PGlite (in memory)', pglite);
} finally {
  await pglite.close();
}
