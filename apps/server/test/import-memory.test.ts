// Imports of maximum-size files do not hold them in memory (decision "Import limits"). A server process of `main.ts`
// imports six videos of 199 MiB at once (MAX_VIDEO_MB left at its default of 200) from a local web site, through
// `POST /link-video/file/upload`, three users two each (the per-user import limit); its resident memory is sampled
// all along and may grow by at most 300 MB over what it held after a warm-up import. Before imports were streamed
// to a work file, each held its download twice (the chunks and their concatenation): six took the server to 2.7 GB.
//
// The videos are real (a 2 s H.264 clip) padded to size with an MP4 `free` box (support/bigMedia.ts).
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.js';
import { paddedVideo } from './support/bigMedia.js';
import type { TestDb } from './support/databases.js';
import { faultDatabase, printFigures, serverEnv, signUp } from './support/faults.js';
import type { HttpClient } from './support/httpClient.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from './support/serverProcess.js';

const MIB = 1024 * 1024;
/** Just under the default MAX_VIDEO_MB of 200. */
const VIDEO_BYTES = 199 * MIB;
const IMPORTS = 6;
const USERS = 3;
const GROWTH_LIMIT = 300 * 1000 * 1000;
const figures: Record<string, string | number> = {};

/** The resident memory of a process, in bytes, from /proc. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

describe('six maximum-size imports at once', () => {
  let database: TestDb;
  let dataDir: string;
  let work: string;
  let site: Server;
  let siteBase = '';
  let video = '';
  let server: ServerProcess;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'reelsmith-import-memory-'));
    video = await paddedVideo(work, VIDEO_BYTES);
    site = createServer((req, res) => {
      // Every path under /videos/ is the big video, so each import is a download of its own.
      if (!req.url?.startsWith('/videos/')) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': statSync(video).size });
      createReadStream(video).pipe(res);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(site.address() as AddressInfo).port}`;
    siteBase = `http://${host}`;
    database = await faultDatabase();
    dataDir = join(work, 'data');
    server = startServer(serverEnv(database.url as string, dataDir, { OUTBOUND_ALLOW_HOSTS: host, LOG_LEVEL: 'warn' }), await freePort());
    await whenHealthy(server);
  }, 180_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
    await database?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    printFigures('imports of maximum-size files', figures);
  });

  const importInto = async (client: HttpClient, projectId: string, name: string) =>
    client.call('POST', '/link-video/file/upload', { body: { projectId, urls: [`${siteBase}/videos/${name}.mp4`] } });

  it('keeps the server within 300 MB of its resting memory while six 199 MiB videos are imported', async () => {
    const pid = server.child.pid as number;
    const members = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        const { client, userId } = await signUp(database.db, server.base, `importer-${i}@example.com`);
        const { projectId } = await client.ok<{ projectId: string }>('POST', '/project/createProject', { body: { projectName: 'Big' } });
        return { client, userId, projectId };
      }),
    );
    // A first import loads what every import uses (ffprobe's first run, sharp, the storage paths): the resting memory
    // is measured after it, so the growth is what the parallel imports themselves hold.
    const [first] = members;
    if (!first) throw new Error('no member');
    expect((await importInto(first.client, first.projectId, 'warm-up')).body.code).toBe(0);
    const resting = rssOf(pid);

    let peak = resting;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssOf(pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const healthTimes: number[] = [];
    let importing = true;
    const prober = (async () => {
      while (importing) {
        const started = performance.now();
        await fetch(`${server.base}/reelsmith/api/health`);
        healthTimes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: IMPORTS }, (_, i) => {
        const member = members[i % USERS] as (typeof members)[number];
        return importInto(member.client, member.projectId, `import-${i}`);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    importing = false;
    await prober;
    sampling = false;
    await sampler;

    for (const answer of answers) expect(answer.body, answer.body.message).toMatchObject({ code: 0 });
    for (const member of members) {
      const rows = await database.db.select().from(files).where(eq(files.userId, member.userId));
      expect(rows.filter((row) => row.size === VIDEO_BYTES)).toHaveLength(member === first ? 3 : 2);
    }
    const growth = peak - resting;
    figures['imports at once'] = `${IMPORTS} of ${VIDEO_BYTES / MIB} MiB (${USERS} users, 2 each), done in ${seconds.toFixed(1)} s`;
    figures['server memory at rest (MB)'] = Math.round(resting / 1e6);
    figures['server memory at peak (MB)'] = Math.round(peak / 1e6);
    figures['growth (MB, limit 300)'] = Math.round(growth / 1e6);
    figures['/health while importing (slowest, ms)'] = Math.round(Math.max(0, ...healthTimes));
    expect(growth).toBeLessThanOrEqual(GROWTH_LIMIT);
  }, 600_000);
});
