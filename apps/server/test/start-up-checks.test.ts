// Decision "Start-up checks": a server missing a part its tools need says so when it starts, refuses those tools'
// submissions before charging, and a task that meets a part gone at run time tells the user the server is
// misconfigured, refunded once. The parts are real: a program that exits 127 as a broken FFMPEG_PATH, a wrapper of
// the real ffmpeg removed under a running server.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@reelsmith/contract';
import { locateTools, MediaToolError, MusicSynthMissingError, runTool } from '@reelsmith/media';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pointsLedger, tasks } from '../src/db/schema.js';
import { misconfiguredError } from '../src/misconfigured.js';
import { GENERATION_TASKS } from '../src/modules/generation/tasks.js';
import { linkVideoTask } from '../src/modules/link-video/video/tasks.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { checkPart, PARTS } from '../src/parts.js';
import { loadSettings } from '../src/settings.js';
import { appOn } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';
import { freePort, printed, startServer, whenHealthy } from './support/serverProcess.js';

const silent = { info() {}, warn() {}, error() {} };
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-start-up-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A program at `name` in the temp dir with this shell body. */
function program(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** An ffmpeg that never runs: the shell's "not found", as a wrapper whose target is gone or a missing library answers. */
const broken = program('broken-ffmpeg', 'exit 127');
const settingsWith = (env: Record<string, string>) => loadSettings({ DATA_DIR: join(dir, 'data'), ...env });

describe('the check of each part', () => {
  it('finds every part of this machine', { timeout: 60_000 }, async () => {
    const settings = settingsWith({});
    for (const part of PARTS) expect(await checkPart(part, settings)).toEqual({ part, ok: true });
  });

  it('names a FFMPEG_PATH that does not run, and what to do about it', async () => {
    const check = await checkPart('ffmpeg', settingsWith({ FFMPEG_PATH: broken }));
    expect(check).toMatchObject({ part: 'ffmpeg', ok: false });
    if (check.ok) return;
    expect(check.problem).toContain(`FFMPEG_PATH points at ${broken}`);
    expect(check.problem).toContain('exit 127');
    expect(check.fix).toMatch(/set FFMPEG_PATH to a working ffmpeg/);
  });

  it('names a FFMPEG_PATH that is not a program, and a FFPROBE_PATH that does not run', async () => {
    const notProgram = join(dir, 'not-a-program');
    writeFileSync(notProgram, 'text');
    const notExecutable = await checkPart('ffmpeg', settingsWith({ FFMPEG_PATH: notProgram }));
    expect(notExecutable).toMatchObject({
      ok: false,
      problem: expect.stringContaining(`${notProgram}, which is not an executable program`),
    });
    const probe = await checkPart('ffmpeg', settingsWith({ FFPROBE_PATH: program('broken-ffprobe', 'exit 127') }));
    expect(probe).toMatchObject({ ok: false, problem: expect.stringContaining('FFPROBE_PATH points at') });
  });
});

describe('a failure of a part at run time', () => {
  it('is the server misconfigured: a program not there, not executable, or that never ran; the SoundFont missing', async () => {
    const gone = await runTool(join(dir, 'no-such-ffmpeg'), ['-version']).catch((e: unknown) => e);
    expect((gone as NodeJS.ErrnoException).code).toBe('ENOENT');
    const notExecutable = join(dir, 'not-executable');
    writeFileSync(notExecutable, '#!/bin/sh\n');
    const refused = await runTool(notExecutable, []).catch((e: unknown) => e);
    expect((refused as NodeJS.ErrnoException).code).toBe('EACCES');
    const neverRan = await runTool(broken, []).catch((e: unknown) => e);
    expect(neverRan).toBeInstanceOf(MediaToolError);
    for (const error of [gone, refused, neverRan, new MusicSynthMissingError('The SoundFont')])
      expect(misconfiguredError(error)?.key).toBe('generationMisconfigured');
  });

  it('is not for a program that failed on its input, nor for a file of the user gone', async () => {
    const ffmpeg = locateTools().ffmpeg;
    const badInput = await runTool(ffmpeg, ['-v', 'error', '-i', join(dir, 'none.mp4'), '-f', 'null', '-']).catch((e: unknown) => e);
    expect(badInput).toBeInstanceOf(MediaToolError);
    const userFile = await import('node:fs/promises').then((fs) =>
      fs.readFile(join(dir, 'data', 'files', 'x.png')).catch((e: unknown) => e),
    );
    for (const error of [badInput, userFile, new Error('a bug')]) expect(misconfiguredError(error)).toBeUndefined();
  });
});

describe('a server started with a FFMPEG_PATH that does not run', () => {
  it('starts, warning of the part and the tools it disables, and /health reports it', { timeout: 90_000 }, async () => {
    const server = startServer({ DATA_DIR: join(dir, 'process'), FFMPEG_PATH: broken, LOG_LEVEL: 'warn' }, await freePort());
    try {
      await whenHealthy(server);
      const lines = printed(server);
      const at = lines.findIndex((l) => l.startsWith('Warning: this server lacks parts some tools need'));
      expect(at, lines.join('\n')).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toContain(`ffmpeg and ffprobe: FFMPEG_PATH points at ${broken}, which does not run`);
      expect(lines[at + 1]).toContain('To fix: set FFMPEG_PATH to a working ffmpeg');
      expect(lines[at + 2]).toMatch(/^ {4}Disables: .*\blink-video\b.*\bexport-video\b/);
      // Only the broken part: the fonts, the SoundFont, the speech engine and the model are there.
      expect(lines.slice(at + 3).filter((l) => l.startsWith('  - '))).toEqual([]);
      const health = (await (await fetch(`${server.base}/reelsmith/api/health`)).json()) as { data: { engine: { parts: object } } };
      expect(health.data.engine.parts).toEqual({ ffmpeg: 'missing', fonts: 'ok', music: 'ok', speech: 'ok', cutout: 'ok' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses to start in production', { timeout: 90_000 }, async () => {
    const server = startServer(
      {
        NODE_ENV: 'production',
        DATA_DIR: join(dir, 'production'),
        FFMPEG_PATH: broken,
        // What production's settings require besides; the parts are checked before the database is opened, so
        // none is needed at this address.
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        SESSION_SECRET: 'x'.repeat(40),
        PUBLIC_URL: 'https://reelsmith.example',
        METRICS_TOKEN: 'm'.repeat(20),
        GOOGLE_CLIENT_ID: 'client',
        GOOGLE_CLIENT_SECRET: 'secret',
      },
      await freePort(),
    );
    expect(await server.exited).toBe(1);
    expect(printed(server)).toEqual([
      `Production needs ffmpeg: FFMPEG_PATH points at ${broken}, which does not run: broken-ffmpeg failed (exit 127). To fix: set FFMPEG_PATH to a working ffmpeg, or unset it to use the npm-installed one.`,
    ]);
  });
});

for (const testDb of testDatabases()) {
  describe(`submissions to a server without ffmpeg, on ${testDb.name}`, () => {
    const t = appOn(testDb, () => ({ FFMPEG_PATH: broken }), [linkVideoTask, ...GENERATION_TASKS]);

    it('answers the tools that need it "not available" before charging, and takes the others', { timeout: 60_000 }, async () => {
      const { browser, userId } = await activeMember(t, 'seller');
      const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'Bottle' } })) as {
        projectId: string;
      };
      const picture = await sharp({ create: { width: 800, height: 800, channels: 3, background: { r: 40, g: 90, b: 160 } } })
        .png()
        .toBuffer();
      const { fileId, resKey } = (await upload(t, browser, picture, 'png')).body.data as { fileId: string; resKey: string };
      const before = await availableOf(t.ctx.db, userId);
      const unavailable = { code: 50020, message: errorMessage('toolUnavailable', 'en') };

      const preview = await browser.call('POST', '/task/v1/link-video/submit', {
        body: {
          projectId,
          productLink: 'https://shop.example/p/bottle',
          productName: 'Bottle',
          productDescription: 'A bottle.',
          fileIds: [fileId],
        },
      });
      expect(preview.body).toMatchObject(unavailable);
      // Charged tools too: image to video is the local engine's camera move, rendered by ffmpeg.
      const animate = await browser.call('POST', '/video/image2video', { body: { image: { resKey }, duration: 5 } });
      expect(animate.body).toMatchObject(unavailable);
      expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toEqual([]);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);

      // A tool that needs no part of this machine (the sandbox's pictures, free: decision "Stand-ins are free") is taken.
      const picture2 = await browser.call('POST', '/image/generate', { body: { prompt: 'A blue bottle', ratio: '1:1' } });
      expect(picture2.body.code).toBe(0);
      expect((await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).map((task) => task.kind)).toEqual(['text-to-image']);
      await expectConsistent(t.ctx.db);
    });
  });

  describe(`a task whose ffmpeg is removed under a running server, on ${testDb.name}`, () => {
    const wrapper = join(dir, `ffmpeg-wrapper-${testDb.name}`);
    const t = appOn(
      testDb,
      () => {
        writeFileSync(wrapper, `#!/bin/sh\nexec '${locateTools().ffmpeg}' "$@"\n`);
        chmodSync(wrapper, 0o755);
        return { FFMPEG_PATH: wrapper };
      },
      GENERATION_TASKS,
    );
    let worker: Worker | undefined;
    afterEach(async () => worker?.stop());

    it('fails saying the server is misconfigured, refunded once', { timeout: 60_000 }, async () => {
      // Checked present, as at start; then the program goes (an upgrade half done, a volume unmounted).
      expect(await t.ctx.parts.check('ffmpeg')).toEqual({ part: 'ffmpeg', ok: true });
      rmSync(wrapper);
      // The sandbox's video under a vendor's name, so it is charged (decision "Stand-ins are free"); it still runs ffmpeg.
      const sandbox = t.ctx.providers.textToVideo;
      if (sandbox) t.ctx.providers.textToVideo = { ...sandbox, name: 'fal' };
      const { browser, userId } = await activeMember(t, 'director');
      const before = await availableOf(t.ctx.db, userId);
      const { taskId } = (await browser.ok('POST', '/video/text2video', {
        body: { prompt: 'Sneakers in the rain', duration: 5, ratio: '16:9' },
      })) as { taskId: string };
      expect(await availableOf(t.ctx.db, userId)).toBeLessThan(before);
      worker = startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
      let answer: { status: string; error?: string };
      for (;;) {
        answer = (await browser.ok('GET', '/task/v1/text-to-video/query', { query: { taskId } })) as typeof answer;
        if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer).toMatchObject({
        status: 'FAILURE',
        error: JSON.stringify({ message: errorMessage('generationMisconfigured', 'en') }),
      });
      const refunds = await t.ctx.db
        .select()
        .from(pointsLedger)
        .where(and(eq(pointsLedger.taskId, taskId), eq(pointsLedger.operationType, 'REFUND_TASK')));
      expect(refunds).toHaveLength(1);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      await expectConsistent(t.ctx.db);
      t.ctx.providers.textToVideo = sandbox;
    });
  });
}
