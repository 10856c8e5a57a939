// Starts the product exactly as an operator would (`npm start` in the repo root, fresh DATA_DIR) and
// stops it again; browser tests drive what this serves.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  const fullEnv = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn', ...env };
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
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
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
