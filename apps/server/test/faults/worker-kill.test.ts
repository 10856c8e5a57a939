// Fault: a worker killed mid-render. A real link-to-video export runs in a ROLE=worker process of `main.ts`;
// while its ffmpeg encodes, the worker and everything it started get SIGKILL (as a container runtime or the OOM
// killer does it). The second worker takes the task once the dead one's lease lapses and finishes it: the export is
// charged exactly once and never refunded, the video is a valid MP4, no ffmpeg of the dead worker is left running,
// and the store holds exactly the project's files, nothing half-written.

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../src/db/schema.js';
import { filesDirOf } from '../../src/modules/files/storage/index.js';
import { STALE_WORK_MS, sweepStaleWork, tmpDirOf } from '../../src/modules/files/workDir.js';
import { priceOf } from '../../src/modules/points/prices.js';
import type { TestDb } from '../support/databases.js';
import {
  availableOf,
  expectLedgerConsistent,
  expectStoreMatchesAssets,
  faultDatabase,
  ledgerOf,
  printFigures,
  serverEnv,
  signUp,
  taskEnded,
  taskRow,
  uploadFile,
  waitFor,
} from '../support/faults.js';
import type { HttpClient } from '../support/httpClient.js';
import { allProcesses, descendantsOf, isAlive, killTree, type ProcessInfo } from '../support/processTree.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from '../support/serverProcess.js';

const LEASE_SECONDS = 2;
const figures: Record<string, string | number> = {};

const picture = (r: number, g: number, b: number) =>
  sharp({ create: { width: 900, height: 1200, channels: 3, background: { r, g, b } } })
    .composite([{ input: Buffer.from('<svg width="400" height="400"><circle cx="200" cy="200" r="180" fill="white"/></svg>') }])
    .png()
    .toBuffer();

describe('a worker killed with SIGKILL in the middle of a render', () => {
  let database: TestDb;
  let dataDir: string;
  let api: ServerProcess;
  const workers: ServerProcess[] = [];
  const db = () => database.db;

  const env = (role: string) =>
    serverEnv(database.url as string, dataDir, { ROLE: role, WORKER_CONCURRENCY: '1', TASK_LEASE_SECONDS: String(LEASE_SECONDS) });

  beforeAll(async () => {
    database = await faultDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-fault-kill-'));
    api = startServer(env('api'), await freePort());
    for (let i = 0; i < 2; i++) workers.push(startServer(env('worker'), await freePort()));
    await Promise.all([api, ...workers].map((s) => whenHealthy(s)));
  }, 120_000);

  afterAll(async () => {
    for (const server of [api, ...workers]) server?.child.kill('SIGKILL');
    await Promise.all([api, ...workers].filter(Boolean).map((s) => s.exited));
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    printFigures('worker killed mid-render', figures);
  });

  async function submit(client: HttpClient, kind: string, body: object) {
    return (await client.ok<{ taskId: string }>('POST', `/task/v1/${kind}/submit`, { body })).taskId;
  }

  it('gives the export to the other worker, which finishes it: charged once, never refunded, a valid MP4, nothing left behind', async () => {
    const { client, userId } = await signUp(db(), api.base, 'render-kill@example.com');
    const { projectId } = await client.ok<{ projectId: string }>('POST', '/project/createProject', { body: { projectName: 'Kettle' } });
    const fileIds = [
      await uploadFile(client, await picture(30, 120, 200), 'png', 'kettle-1.png'),
      await uploadFile(client, await picture(200, 80, 60), 'png', 'kettle-2.png'),
    ];

    // The previews (free) first: the export renders one of them in full quality.
    const previewId = await submit(client, 'link-video', {
      projectId,
      productLink: 'https://shop.example/products/kettle',
      productName: 'Steel Kettle 1.7L',
      productDescription: 'Boils in three minutes. Stays cool to the touch. Switches itself off.',
      fileIds,
      editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 1 },
    });
    const previews = await taskEnded(db(), previewId, 120_000);
    expect(previews.status, JSON.stringify(previews.error)).toBe('SUCCESS');
    const scriptId = (previews.result as { scriptContentList: { scriptId: string }[] }).scriptContentList[0]?.scriptId as string;

    const price = await priceOf(db(), 'link2V_15s');
    const before = await availableOf(db(), userId);
    const exportId = await submit(client, 'export-video', { projectId, taskId: previewId, resultNum: 1, scriptId, videoLengthType: '2' });

    // The worker that claimed it is caught while its ffmpeg renders the pieces.
    const [doomed, encoders] = await waitFor(
      async () => {
        if ((await taskRow(db(), exportId))?.progress !== 'rendering') return false;
        for (const worker of workers) {
          const ffmpeg = descendantsOf(worker.child.pid as number).filter((p) => p.name === 'ffmpeg');
          if (ffmpeg.length > 0) return [worker, ffmpeg] as const;
        }
        return false;
      },
      'the export to be rendering in ffmpeg',
      120_000,
    );
    const survivor = workers.find((w) => w !== doomed) as ServerProcess;
    const killed: ProcessInfo[] = killTree(doomed.child.pid as number);
    const killedAt = Date.now();
    expect(await doomed.exited).toBe('SIGKILL');
    figures['ffmpeg processes running at the kill'] = encoders.length;
    figures['processes killed with the worker'] = killed.map((p) => p.name).join(', ');

    // None of what the dead worker started is left: no ffmpeg of its, nor any program still working on its files.
    await waitFor(() => killed.every((p) => !isAlive(p.pid)), 'the killed ffmpeg processes to be gone', 10_000);
    expect(killed.filter((p) => p.name === 'ffmpeg').length).toBeGreaterThanOrEqual(encoders.length);
    const orphans = (): ProcessInfo[] =>
      allProcesses().filter((p) => p.name === 'ffmpeg' && p.state !== 'Z' && p.ppid !== survivor.child.pid && p.command.includes(dataDir));
    expect(orphans()).toEqual([]);

    const ended = await taskEnded(db(), exportId, 120_000);
    figures['seconds from the kill to the export finished by the other worker'] = ((Date.now() - killedAt) / 1000).toFixed(1);
    expect(ended.status, JSON.stringify(ended.error)).toBe('SUCCESS');
    expect(ended.attempts).toBe(2);
    const startedBy = (w: ServerProcess) => w.logs().filter((l) => l.msg === 'task started' && l.taskId === exportId).length;
    expect([startedBy(doomed), startedBy(survivor)]).toEqual([1, 1]);
    expect(orphans()).toEqual([]);

    // Charged exactly once, never refunded; the ledger adds up.
    expect((await ledgerOf(db(), exportId)).map((r) => r.change)).toEqual([-price]);
    expect(await availableOf(db(), userId)).toBe(before - price);
    await expectLedgerConsistent(db());
    figures['ledger rows of the export'] = (await ledgerOf(db(), exportId)).length;

    // The video is whole: the user's link serves an MP4 that ffprobe reads as 1080×1920, 15 s, with sound.
    const answer = await client.ok<{ status: string; exportVideos: { resKey: string; videoUrl: string }[] }>(
      'GET',
      '/task/v1/export-video/query',
      { query: { taskId: exportId } },
    );
    expect(answer.exportVideos).toHaveLength(1);
    const res = await fetch(new URL(answer.exportVideos[0]?.videoUrl as string, api.base));
    expect(res.status).toBe(200);
    const local = join(dataDir, 'downloaded-export.mp4');
    writeFileSync(local, Buffer.from(await res.arrayBuffer()));
    const video = await probe(locateTools(), local);
    expect(video).toMatchObject({ width: 1080, height: 1920 });
    expect(Math.abs(video.duration - 15)).toBeLessThanOrEqual(1);
    expect(video.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    figures['export size (MB)'] = (res.headers.get('content-length') ? Number(res.headers.get('content-length')) / 1e6 : 0).toFixed(2);

    // One export file for the project, and the store holds exactly the user's files: nothing half-written.
    const generated = await db().select().from(files).where(eq(files.userId, userId));
    expect(generated.filter((f) => f.name.endsWith('export.mp4'))).toHaveLength(1);
    const held = await expectStoreMatchesAssets(db(), filesDirOf(dataDir), userId);
    figures['objects in the store for the user'] = held.length;
    // A process killed with SIGKILL cannot remove its work (the job's directory, the render's pieces): all of it
    // is in DATA_DIR/tmp, where the sweep of stale work removes it once it is older than any task may run.
    const left = readdirSync(tmpDirOf(dataDir));
    figures['work entries left by the killed attempt in DATA_DIR/tmp'] = left.length;
    expect(left.length).toBeGreaterThan(0);
    expect(await sweepStaleWork(dataDir)).toBe(0);
    expect(await sweepStaleWork(dataDir, Date.now() + STALE_WORK_MS + 60_000)).toBe(left.length);
    expect(readdirSync(tmpDirOf(dataDir))).toEqual([]);
  }, 300_000);
});
