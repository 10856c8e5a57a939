// A PostgreSQL cluster of a test's own, for faults that stop the database server (the shared one at 127.0.0.1:5432
// serves the tests running beside it and must never be restarted). initdb and pg_ctl of the Debian packages, in a
// temporary directory, on a free port, with trust authentication. PostgreSQL refuses to run as root: as root the
// programs run as the `postgres` user through runuser.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './serverProcess.js';

const run = promisify(execFile);

/** The newest installed PostgreSQL's programs (`/usr/lib/postgresql/<major>/bin`). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL server programs not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  return join(root, newest, 'bin');
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  /** A fast stop (sessions ended, a checkpoint) and a start: what `pg_ctl restart -m fast` does. */
  restartFast(): Promise<void>;
  /** An immediate stop: every process of the server killed at once, as a crash would, recovery at the next start. */
  stopImmediate(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (whatever state it is in) and removes its files. */
  destroy(): Promise<void>;
}

/** Creates, starts and fills a cluster with one empty database named `database`. */
export async function startPrivatePostgres(database = 'reelsmith'): Promise<PrivatePostgres> {
  const bin = binDir();
  const root = mkdtempSync(join(tmpdir(), 'reelsmith-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = async (program: string, args: string[]) => {
    const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    try {
      await run(command as string, all as string[], { cwd: root, timeout: 60_000 });
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${program} ${args.join(' ')} failed: ${(error as Error).message}\n${tail}`);
    }
  };
  const port = await freePort();
  // Socket in the cluster's own directory (the system's belongs to the shared server); fsync off: nothing here
  // survives the test, and a stop of any mode still leaves a consistent cluster to recover.
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () => pgRun('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options]);
  await start();

  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    // -l on restart too: a postmaster without a log file would keep pg_ctl's output open, and pg_ctl waiting.
    restartFast: () => pgRun('pg_ctl', ['restart', '-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60', '-o', options]),
    stopImmediate: () => pgRun('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '60']),
    start,
    async destroy() {
      if (existsSync(join(data, 'postmaster.pid'))) await pgRun('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '60']);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
