// The load benchmark works: `node bench/load.mjs --smoke` runs 20 users for 5 s against one API and one
// worker process on a fresh PostgreSQL database and prints its figures. Timings are only printed; what this checks
// is that every figure is there and that the run was clean: no errors, every task ended, zero drift.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/serverProcess.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.warn('load-bench.test.ts: skipped: TEST_DATABASE_URL is unset (the benchmark runs server processes on PostgreSQL)');

function runBench(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bench/load.mjs'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

/** The number a printed line gives after `label`, e.g. `figure(out, /errors (\d+)/)`. */
function figure(out: string, pattern: RegExp): number {
  const match = pattern.exec(out);
  if (!match) throw new Error(`the benchmark did not print ${pattern}:\n${out}`);
  return Number(match[1]);
}

describe.skipIf(!databaseUrl)('bench/load.mjs --smoke', () => {
  it('prints throughput, read and write latency, errors, tasks and drift, with no errors and zero drift', async () => {
    const { code, out } = await runBench(['--smoke']);
    console.log(out);
    expect(out).toMatch(/^Load: 20 users for 5 s /m);
    expect(figure(out, /requests\/s (\d+(?:\.\d+)?)/)).toBeGreaterThan(0);
    for (const kind of ['reads', 'writes']) {
      expect(out).toMatch(new RegExp(`^ {2}${kind} +\\d+ requests {2}p50 [\\d.]+ ms {2}p95 [\\d.]+ ms {2}p99 [\\d.]+ ms`, 'm'));
    }
    expect(figure(out, /^ {2}errors (\d+)/m)).toBe(0);
    const submitted = figure(out, /tasks submitted (\d+)/);
    expect(submitted).toBeGreaterThan(0);
    expect(figure(out, /and (\d+) after [\d.]+ s of draining/)).toBe(submitted);
    // Every fourth submission fails on purpose, the first among them: its refund is part of the drift check.
    expect(figure(out, /(\d+) failed and refunded/)).toBeGreaterThan(0);
    expect(figure(out, /; (\d+) not as meant/)).toBe(0);
    expect(figure(out, /^ {2}drift (\d+)/m)).toBe(0);
    expect(figure(out, /ledger audit findings (\d+)/)).toBe(0);
    expect(figure(out, /server warnings and errors logged (\d+)/)).toBe(0);
    expect(code).toBe(0);
  }, 180_000);
});
