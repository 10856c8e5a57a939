// Starts the product exactly as an operator would (`npm start` in the repo root, fresh DATA_DIR) and
// stops it again; browser tests drive what this serves.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from '../../test-support/wait.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const PREFIX = 'reelsmith';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Product {
  base: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  log: () => string;
  stop: () => Promise<void>;
  /** Runs the admin CLI against this product's data, as an operator would. */
  admin: (...args: string[]) => string;
  /**
   * Sends one admin command straight to the running server's admin RPC, the way the CLI does: for seeding
   * many records without starting a CLI process for each.
   */
  adminRpc: (command: Record<string, unknown>) => Promise<string[]>;
}

export async function startProduct(env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Product> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-e2e-'));
  const base = `http://127.0.0.1:${port}`;
  // Each test starts a fresh DATA_DIR: rendering all eight music loops at start in every one would only load the
  // machine (a test that needs the warm-up asks for it).
  const fullEnv = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    MUSIC_WARM_UP: 'false',
    ...env,
  };
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ...fullEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  // `npm start` exits before the server it started has finished shutting down (it may still be writing to
  // DATA_DIR), so stopping waits for the whole process group to be gone, killing it after 10 s.
  const stop = async () => {
    const group = child.pid;
    if (group) {
      signalGroup(group, 'SIGTERM');
      const deadline = Date.now() + 10_000;
      while (groupAlive(group) && Date.now() < deadline) await sleep(100);
      if (groupAlive(group)) {
        signalGroup(group, 'SIGKILL');
        while (groupAlive(group)) await sleep(100);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const admin = (...args: string[]) =>
    execFileSync('npm', ['run', '--silent', 'admin', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...fullEnv },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const adminRpc = async (command: Record<string, unknown>) => {
    const { url, token } = JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { url: string; token: string };
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(command),
    });
    const envelope = (await res.json()) as { code: number; message: string; data: { lines: string[] } };
    if (envelope.code !== 0) throw new Error(`admin ${String(command.command)}: ${envelope.message}`);
    return envelope.data.lines;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${log.slice(-1500)}`);
    try {
      const res = await fetch(`${base}/${PREFIX}/api/health`);
      const body = (await res.json()) as { code: number };
      if (body.code === 0) return { base, port, dataDir, env: fullEnv, log: () => log, stop, admin, adminRpc };
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  await stop();
  throw new Error(`health did not answer within ${timeoutMs / 1000}s: ${log.slice(-1500)}`);
}

/** The last line the admin CLI printed for `invites create`: one new invitation code. */
export function newInviteCode(product: Product): string {
  const lines = product.admin('invites', 'create', '--count', '1').trim().split('\n');
  const code = lines[lines.length - 1]?.trim();
  if (!code) throw new Error('the admin CLI printed no invitation code');
  return code;
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * True while a process of the group still runs. Read from /proc rather than with signal 0, which also
 * answers for zombies that an init that does not reap would leave in the group for ever.
 */
function groupAlive(group: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended while the list was read
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and brackets, so fields count from the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
