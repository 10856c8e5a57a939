// The server as an operator runs it: `main.ts` in a process of its own (node with tsx's loader, so signals reach
// the server itself), its JSON log lines collected, ready once it answers its health probe.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const MAIN = join(REPO_ROOT, 'apps/server/src/main.ts');
export const START_COMMAND = [process.execPath, '--import', 'tsx', MAIN];

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** Every line it printed on stdout and stderr so far. */
  lines: string[];
  /** Its JSON log records so far (pino's lines). */
  logs(): Array<Record<string, unknown>>;
  /** Resolves with the exit code (or the signal's name) when it ends. */
  exited: Promise<number | string>;
}

/** Starts `main.ts` with this environment (nothing inherited but PATH and HOME) on a free port. */
export function startServer(env: Record<string, string>, port: number): ServerProcess {
  const child = spawn(START_COMMAND[0] as string, START_COMMAND.slice(1), {
    cwd: REPO_ROOT,
    // No music warm-up: the tests' servers live seconds, and eight loops rendered in each would only load the machine.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      MUSIC_WARM_UP: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    });
  }
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const logs = () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, port, base: `http://127.0.0.1:${port}`, lines, logs, exited };
}

/**
 * The lines a process printed, without Node's warnings (the AWS SDK warns on Node 20 over several lines, from
 * `(node:PID) Warning` to the `--trace-warnings` hint) and blank lines.
 */
export function printed(server: ServerProcess): string[] {
  const out: string[] = [];
  let inWarning = false;
  for (const line of server.lines) {
    if (/^\(node:\d+\) \w*Warning/.test(line)) inWarning = true;
    if (!inWarning && line) out.push(line);
    if (line.startsWith('(Use `node --trace-warnings')) inWarning = false;
  }
  return out;
}

/** Waits until the process answers GET /reelsmith/api/health with code 0, or fails with what it printed. */
export async function whenHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => {
    ended = true;
  });
  while (Date.now() < until && !ended) {
    try {
      const res = await fetch(`${server.base}/reelsmith/api/health`);
      if (res.ok && ((await res.json()) as { code: number }).code === 0) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server on port ${server.port} did not become healthy:\n${server.lines.join('\n')}`);
}

/**
 * A request to a server process as a proxy forwards it, under another Host name (fetch cannot send Host: it is a
 * forbidden header, replaced by the address's own).
 */
export async function requestAs(
  host: string,
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; json: () => unknown }> {
  const req = request(url, { method, headers: { ...headers, host } });
  req.end(body);
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  let text = '';
  for await (const chunk of res.setEncoding('utf8')) text += chunk;
  return { status: res.statusCode ?? 0, json: () => JSON.parse(text) };
}
