// Migration 0016 (previews) on a project made before decision "Previews as rows": the tasks as the old code wrote
// them (a link-video task, script updates chained by `taskId`, a failed update, another user's, a cycle, a project
// since deleted) become one row per preview as the replay of the chain saw it, every task of the chain recorded as
// one of its renders. The project can then be script-updated and exported with the tasks' inputs gone.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { migrate } from '../src/db/migrate.js';
import { previewRenders, previews } from '../src/db/schema.js';
import * as compose from '../src/modules/link-video/video/compose.js';
import { exportVideoTask, linkVideoTask, scriptUpdateTask } from '../src/modules/link-video/video/tasks.js';
import { priceOf } from '../src/modules/points/prices.js';
import { startWorker } from '../src/modules/tasks/worker.js';
import { type Browser, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember } from './support/files.js';
import { migrateWith, migrationsBefore } from './support/migrations.js';
import { availableOf, expectConsistent } from './support/points.js';

// A pass-through spy: every render is real, and the test sees what each was asked to render.
vi.mock('../src/modules/link-video/video/compose.js', async (original) => {
  const real = await original<typeof compose>();
  return { ...real, composeVideo: vi.fn(real.composeVideo) };
});

const TAG = '0016_previews';
const silent = { info() {}, warn() {}, error() {} };

const picture = () =>
  sharp({ create: { width: 240, height: 320, channels: 3, background: { r: 200, g: 150, b: 60 } } })
    .png()
    .toBuffer();

const L = 'a1b2c3d4-0000-4000-8000-000000000001';
const S1 = 'a1b2c3d4-s1';
const S2 = 'a1b2c3d4-s2';
const seg = (...lines: string[]) => lines.map((segText, i) => ({ segId: i + 1, segText }));
const json = (value: unknown) => JSON.stringify(value);

describe.each(testDatabases())('migration 0016 (previews) on $name', (testDb) => {
  it('fills a row per old preview from the task chain; the project is then script-updated and exported', { timeout: 600_000 }, async () => {
    const database = await testDb.openEmpty();
    const before = migrationsBefore(TAG);
    await migrateWith(database, before);
    const { app, ctx } = await testApp(database.db, {}, [linkVideoTask, scriptUpdateTask, exportVideoTask]);
    const worker = startWorker(ctx, ctx.tasks, { concurrency: 1, log: silent });
    try {
      const { db } = database;
      const { browser, userId } = await activeMember({ app, ctx }, 'old');
      const other = await activeMember({ app, ctx }, 'other');
      // Written as the code of that time did: today's createProject writes columns later migrations added.
      const projectId = randomUUID();
      await db.execute(sql`insert into projects (id, user_id, name) values (${projectId}, ${userId}, 'Old lamp')`);
      // The product's picture, stored as an upload of that time was: today's upload writes columns later migrations
      // added (a stand-in's mark, among others).
      const fileId = randomUUID();
      const pictureKey = `u/${userId}/${fileId}.png`;
      const bytes = await picture();
      await ctx.storage.put(pictureKey, bytes, { contentType: 'image/png' });
      await db.execute(sql`insert into files (id, user_id, name, res_key, type, format, mime, size, width, height, source, status)
        values (${fileId}, ${userId}, 'lamp.png', ${pictureKey}, 'image', 'png', 'image/png', ${bytes.length}, 240, 320, 'local', 'completed')`);
      // The file of the last render of the first preview, as the old code left it in the library.
      await db.execute(sql`insert into files (id, user_id, name, res_key, type, source, status)
        values ('u2-file', ${userId}, 'lamp – preview 1.mp4', 'old/u2.mp4', 'video', 'generated', 'completed')`);

      const linkInput = {
        projectId,
        productLink: 'https://shop.example/p/lamp',
        productName: 'Old Lamp',
        productDescription: 'A warm light.',
        fileIds: [fileId],
        diyScript: true,
        diyScriptContent: 'A warm light.\nOrder today.',
        voiceId: 'en-ava',
        editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 2, voiceId: 'en-grace', captionId: 'pop' },
      };
      // A result from before templates were named: each preview's template is its turn.
      const linkResult = {
        previewVideos: [
          { resKey: 'old/l1.mp4', scriptId: S1, videoUrl: 'x', taskId: L },
          { resKey: 'old/l2.mp4', scriptId: S2, videoUrl: 'x', taskId: L },
        ],
        scriptContentList: [
          { scriptId: S1, segments: seg('A warm light.', 'Order today.') },
          { scriptId: S2, segments: seg('A warm light.', 'Order today.') },
        ],
      };
      const update = (id: string, taskId: string, scriptId: string, segments: object[], look: object) => ({
        input: { projectId, taskId, resultNum: 1, scriptId, scriptContents: segments, ...look },
        result: {
          previewVideos: [
            {
              resKey: `old/${id}.mp4`,
              scriptId,
              videoUrl: 'x',
              taskId: id,
              templateId: 'templateId' in look ? look.templateId : 'clean-studio',
            },
          ],
          scriptContentList: [{ scriptId, segments }],
        },
      });
      const u1 = update('u1', L, S1, seg('Soft and warm.', 'Order today.'), { voiceId: 'en-noah', templateId: 'sale' });
      const u2 = update('u2', 'u1', S1, seg('Warm light.', 'Order today.'), { musicId: 'breeze' });
      const u3 = update('u3', 'u2', S2, seg('Light your desk.', 'Order now.'), { captionId: 'karaoke' });
      const failed = update('uf', 'u3', S1, seg('Never made.'), { voiceId: 'en-oliver' });
      const theirs = update('ux', L, S1, seg('Not theirs.'), { voiceId: 'en-oliver' });
      await db.execute(sql`
        insert into tasks (id, user_id, kind, project_id, input, status, result, created_at, finished_at) values
          (${L}, ${userId}, 'link-video', ${projectId}, ${json(linkInput)}, 'SUCCESS', ${json(linkResult)}, now() - interval '5 hours', now() - interval '5 hours'),
          ('u1', ${userId}, 'script-update', ${projectId}, ${json(u1.input)}, 'SUCCESS', ${json(u1.result)}, now() - interval '4 hours', now() - interval '4 hours'),
          ('u2', ${userId}, 'script-update', ${projectId}, ${json(u2.input)}, 'SUCCESS', ${json(u2.result)}, now() - interval '3 hours', now() - interval '3 hours'),
          ('u3', ${userId}, 'script-update', ${projectId}, ${json(u3.input)}, 'SUCCESS', ${json(u3.result)}, now() - interval '2 hours', now() - interval '2 hours'),
          ('uf', ${userId}, 'script-update', ${projectId}, ${json(failed.input)}, 'FAILURE', null, now() - interval '1 hour', now() - interval '1 hour'),
          ('ux', ${other.userId}, 'script-update', ${projectId}, ${json(theirs.input)}, 'SUCCESS', ${json(theirs.result)}, now(), now()),
          ('c1', ${userId}, 'script-update', ${projectId}, ${json(update('c1', 'c2', S1, seg('Loop.'), {}).input)}, 'SUCCESS', '{}', now(), now()),
          ('c2', ${userId}, 'script-update', ${projectId}, ${json(update('c2', 'c1', S1, seg('Loop.'), {}).input)}, 'SUCCESS', '{}', now(), now()),
          ('gone', ${userId}, 'link-video', 'deleted-project', ${json({ ...linkInput, projectId: 'deleted-project' })}, 'SUCCESS',
            ${json(linkResult)}, now(), now())`);

      await migrate(database);

      const rows = await db.select().from(previews).orderBy(asc(previews.variant));
      const common = { userId, projectId, taskId: L, aspectRatio: '9:16', videoLength: 15, language: null, fileIds: [fileId] };
      const product = { productName: 'Old Lamp', productDescription: 'A warm light.' };
      expect(rows).toEqual([
        expect.objectContaining({
          ...common,
          scriptId: S1,
          variant: 0,
          // The last update's script; each choice from the last update that made it, else the task's own.
          segments: seg('Warm light.', 'Order today.'),
          voiceId: 'en-noah',
          musicId: 'breeze',
          captionId: 'pop',
          templateId: 'sale',
          product,
          resKey: 'old/u2.mp4',
          fileId: 'u2-file',
        }),
        expect.objectContaining({
          ...common,
          scriptId: S2,
          variant: 1,
          segments: seg('Light your desk.', 'Order now.'),
          // The top-level voice wins over editorConfig's, as videoSettings has it.
          voiceId: 'en-ava',
          musicId: null,
          captionId: 'karaoke',
          // No price before the sale: the second preview's turn is Bold UGC (templatesFor).
          templateId: 'bold-ugc',
          product,
          resKey: 'old/u3.mp4',
          fileId: null,
        }),
      ]);
      const renders = await db
        .select({ taskId: previewRenders.taskId, scriptId: previews.scriptId })
        .from(previewRenders)
        .innerJoin(previews, eq(previews.id, previewRenders.previewId))
        .orderBy(asc(previewRenders.taskId), asc(previews.scriptId));
      expect(renders).toEqual([
        { taskId: L, scriptId: S1 },
        { taskId: L, scriptId: S2 },
        { taskId: 'u1', scriptId: S1 },
        { taskId: 'u2', scriptId: S1 },
        { taskId: 'u3', scriptId: S2 },
      ]);

      // Named through the project's current task (u3, an update of the other preview), the first preview is re-rendered
      // with its new script and keeps the voice, music and template of its last updates.
      const credits = await availableOf(db, userId);
      const edited = await submitAndWait(browser, 'script-update', {
        projectId,
        taskId: 'u3',
        resultNum: 1,
        scriptId: S1,
        scriptContents: seg('Warm.', 'Buy it.'),
      });
      expect(edited.status, edited.error).toBe('SUCCESS');
      expect(edited.previewVideos[0]?.templateId).toBe('sale');
      expect(vi.mocked(compose.composeVideo).mock.calls.at(-1)?.[1]).toMatchObject({
        segments: seg('Warm.', 'Buy it.'),
        settings: { voiceId: 'en-noah', musicId: 'breeze', captionId: 'pop' },
        templateId: 'sale',
        variant: 0,
      });
      const [first] = await db.select().from(previews).where(eq(previews.scriptId, S1));
      expect(first).toMatchObject({
        segments: seg('Warm.', 'Buy it.'),
        voiceId: 'en-noah',
        musicId: 'breeze',
        resKey: edited.previewVideos[0]?.resKey,
      });

      // Nothing is replayed: with every task's input gone, an old update of the chain still names the previews.
      await db.execute(sql`update tasks set input = '{}'::jsonb where user_id = ${userId}`);
      const exported = await submitAndWait(browser, 'export-video', {
        projectId,
        taskId: 'u1',
        resultNum: 1,
        scriptId: S2,
        videoLengthType: '2',
      });
      expect(exported.status, exported.error).toBe('SUCCESS');
      expect(vi.mocked(compose.composeVideo).mock.calls.at(-1)?.[1]).toMatchObject({
        segments: seg('Light your desk.', 'Order now.'),
        settings: { voiceId: 'en-ava', captionId: 'karaoke' },
        templateId: 'bold-ugc',
        variant: 1,
        quality: 'export',
      });
      expect(exported.exportVideos[0]).toMatchObject({
        templateId: 'bold-ugc',
        fileName: 'Old-lamp-2-15s.mp4',
        seconds: 15,
        aspectRatio: '9:16',
      });
      expect(credits - (await availableOf(db, userId))).toBe(await priceOf(db, 'link2V_15s'));
      await expectConsistent(db);
    } finally {
      await worker.stop();
      await app.close();
      rmSync(before, { recursive: true, force: true });
      await database.close();
    }

    async function submitAndWait(browser: Browser, kind: string, body: object) {
      const { taskId } = (await browser.ok('POST', `/task/v1/${kind}/submit`, { body })) as { taskId: string };
      for (;;) {
        const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, { query: { taskId } })) as {
          status: string;
          error?: string;
          previewVideos: { resKey: string; templateId?: string }[];
          exportVideos: { templateId?: string; fileName?: string }[];
        };
        if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  });
});
