import { randomUUID } from 'node:crypto';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { files, tasks } from '../src/db/schema.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { API, appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { putTo, putUrl } from './support/files.js';

describe.each(testDatabases())('projects on $name', (testDb) => {
  const t = appOn(testDb);

  /** A signed-in, activated user, as the web app would have it. */
  async function member(email: string) {
    const browser = new Browser(t.app);
    await browser.devLogin(email);
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
    return browser;
  }
  const create = async (b: Browser, projectName: string) =>
    (await b.ok('POST', '/project/createProject', { body: { projectName } })) as { projectId: string; draftUrl: string | null };
  const fetchDraft = (url: string) => t.app.inject({ method: 'GET', url });

  it('creates a project with a trimmed name and no draft yet, and reads it back', async () => {
    const owner = await member('creator@example.com');
    const created = await create(owner, '  Bottle launch  ');
    expect(created).toEqual({ projectId: expect.any(String), draftUrl: null });
    const got = await owner.ok('GET', '/project/getProjectById', { query: { projectId: created.projectId } });
    expect(got).toMatchObject({ projectId: created.projectId, projectName: 'Bottle launch', productLink: null, taskStatus: null });
  });

  it('cards show the newest ad poster or the main picture, the newest task status and how many videos were exported', async () => {
    const owner = await member('cards@example.com');
    const { projectId } = await create(owner, 'Card');
    const card = async () =>
      ((await owner.ok('POST', '/project/getProjects', { body: { page: 1, pageSize: 10 } })) as { list: Record<string, unknown>[] })
        .list[0];
    expect(await card()).toMatchObject({ projectId, coverUrl: null, taskStatus: null, exportCount: 0 });

    // The page's main photo, imported into the project: its thumbnail is the cover.
    const target = await putUrl(owner, 'png');
    await putTo(t, target, await makeImage(640, 480, 'png'));
    await owner.ok('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName: 'main.png', projectId } });
    // An analysis that failed before the product was entered by hand leaves a draft, not a failed project.
    await t.ctx.db.insert(tasks).values({
      id: randomUUID(),
      userId: (await t.ctx.db.select({ userId: files.userId }).from(files).where(eq(files.projectId, projectId)))[0]?.userId as string,
      projectId,
      kind: 'link-analysis',
      input: {},
      status: 'FAILURE',
      createdAt: new Date(Date.now() - 60_000),
    });
    const withPicture = await card();
    expect(withPicture).toMatchObject({ taskStatus: null, exportCount: 0 });
    const thumb = await t.app.inject({ method: 'GET', url: withPicture?.coverUrl as string });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('webp');

    // An ad made in the project takes over; two exports done, a script update running now.
    const [{ userId }] = (await t.ctx.db.select({ userId: files.userId }).from(files).where(eq(files.projectId, projectId))) as [
      { userId: string },
    ];
    const adId = randomUUID();
    await t.ctx.db.insert(files).values({
      id: adId,
      userId,
      projectId,
      name: 'Card – export.mp4',
      source: 'generated',
      status: 'completed',
      type: 'video',
      format: 'mp4',
      resKey: `u/${userId}/${adId}.mp4`,
      thumbKey: `u/${userId}/${adId}.thumb.webp`,
    });
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    const task = (kind: string, status: 'SUCCESS' | 'IN_PROGRESS' | 'FAILURE', minutes: number) => ({
      id: randomUUID(),
      userId,
      projectId,
      kind,
      input: {},
      status,
      createdAt: at(minutes),
    });
    await t.ctx.db
      .insert(tasks)
      .values([
        task('export-video', 'SUCCESS', 1),
        task('export-video', 'FAILURE', 2),
        task('export-video', 'SUCCESS', 3),
        task('script-update', 'IN_PROGRESS', 4),
      ]);
    const busy = await card();
    expect(busy).toMatchObject({ taskStatus: 'IN_PROGRESS', exportCount: 2 });
    expect(decodeURIComponent(busy?.coverUrl as string)).toContain(`${adId}.thumb.webp`);
    expect(await owner.ok('GET', '/project/getProjectById', { query: { projectId } })).toMatchObject({
      taskStatus: 'IN_PROGRESS',
      exportCount: 2,
    });

    // A link whose analysis failed, with nothing entered since, is a failed project.
    const dead = await create(owner, 'Dead link');
    await t.ctx.db.insert(tasks).values({ ...task('link-analysis', 'FAILURE', 5), projectId: dead.projectId });
    expect(await owner.ok('GET', '/project/getProjectById', { query: { projectId: dead.projectId } })).toMatchObject({
      taskStatus: 'FAILURE',
    });
  });

  it('renames within the 100-character limit and refuses an empty or longer name, changing nothing', async () => {
    const owner = await member('renamer@example.com');
    const { projectId } = await create(owner, 'Before');
    await owner.ok('POST', '/project/updateProjectFileInfo', { body: { projectId, fileName: ` ${'n'.repeat(100)} ` } });
    for (const fileName of ['x'.repeat(101), '   ']) {
      const res = await owner.call('POST', '/project/updateProjectFileInfo', { body: { projectId, fileName } });
      expect(res.body.code).toBe(40000);
      expect(res.body.message).toContain('fileName');
    }
    expect(await owner.ok('GET', '/project/getProjectById', { query: { projectId } })).toMatchObject({ projectName: 'n'.repeat(100) });
  });

  it('saves a draft and serves it back through a signed link that needs no cookie, and only for that project', async () => {
    const owner = await member('drafter@example.com');
    const { projectId } = await create(owner, 'Draft me');
    expect(await owner.ok('POST', '/project/getDraftFileUrl', { body: { projectId } })).toBeNull();
    const draft = JSON.stringify({ stage: 'preview', product: { productName: 'Lamp' } });
    await owner.ok('POST', '/project/saveDraftFile', { body: { projectId, draftContent: draft } });
    const url = (await owner.ok('POST', '/project/getDraftFileUrl', { body: { projectId } })) as string;
    expect(url.startsWith(`${API}/project/draftFile?`)).toBe(true);
    const res = await fetchDraft(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toBe(draft);

    const { projectId: other } = await create(owner, 'Other');
    expect((await fetchDraft(url.replace(projectId, other))).statusCode).toBe(404);
    expect((await fetchDraft(url.replace(/signature=[^&]+/, 'signature=forged'))).statusCode).toBe(404);
    expect((await fetchDraft(url.replace(/expires=\d+/, `expires=${Date.now() + 10 ** 9}`))).statusCode).toBe(404);
  });

  it('lists newest or oldest first with paging, and fetches by ids', async () => {
    const owner = await member('lister@example.com');
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await create(owner, name)).projectId);
    const newest = (await owner.ok('POST', '/project/getProjects', { body: { page: 1, pageSize: 2 } })) as {
      list: { projectName: string }[];
      total: number;
    };
    expect(newest.total).toBe(3);
    expect(newest.list.map((p) => p.projectName)).toEqual(['three', 'two']);
    const oldest = (await owner.ok('POST', '/project/getProjects', { body: { page: 2, pageSize: 2, sort: 'oldest' } })) as {
      list: { projectName: string }[];
    };
    expect(oldest.list.map((p) => p.projectName)).toEqual(['three']);
    const byIds = (await owner.ok('POST', '/project/getProjectByIds', { body: { projectIds: [ids[2], ids[0]] } })) as {
      projectName: string;
    }[];
    expect(byIds.map((p) => p.projectName)).toEqual(['three', 'one']);
  });

  it('another user can neither see, rename, save, list nor delete the project', async () => {
    const owner = await member('owner@example.com');
    const stranger = await member('stranger@example.com');
    const { projectId } = await create(owner, 'Private');
    const attempts = [
      stranger.call('GET', '/project/getProjectById', { query: { projectId } }),
      stranger.call('POST', '/project/updateProjectFileInfo', { body: { projectId, fileName: 'mine' } }),
      stranger.call('POST', '/project/saveDraftFile', { body: { projectId, draftContent: '{}' } }),
      stranger.call('POST', '/project/getDraftFileUrl', { body: { projectId } }),
      stranger.call('POST', '/project/deleteProject', { body: { projectIds: [projectId] } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.body.code).toBe(404);
    expect(await stranger.ok('POST', '/project/getProjectByIds', { body: { projectIds: [projectId] } })).toEqual([]);
    expect(await stranger.ok('POST', '/project/getProjects', { body: { page: 1, pageSize: 10 } })).toEqual({ list: [], total: 0 });
    expect(await owner.ok('GET', '/project/getProjectById', { query: { projectId } })).toMatchObject({ projectName: 'Private' });
  });

  it("answers a project's link-to-video tasks newest first, with a video's choices and a script update's preview, to its owner only", async () => {
    const owner = await member('tasks-owner@example.com');
    const stranger = await member('tasks-stranger@example.com');
    const { userId } = (await owner.ok('GET', '/users/me')) as { userId: string };
    const { projectId } = await create(owner, 'Made by a batch');
    const { projectId: otherProject } = await create(owner, 'Another');
    const at = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000);
    const task = (kind: string, status: 'SUCCESS' | 'IN_PROGRESS' | 'FAILURE', minutes: number, input: object = {}) => ({
      id: randomUUID(),
      userId,
      projectId,
      kind,
      input,
      status,
      createdAt: at(minutes),
    });
    const editorConfig = { videoLength: 30, aspectRatio: '1:1', resultNum: 1, templateId: 'bold' };
    const rows = [
      task('link-analysis', 'FAILURE', 1),
      task('link-analysis', 'SUCCESS', 2),
      task('link-video', 'SUCCESS', 3, {
        productName: 'Aurora bottle',
        productDescription: 'Cold for 24 hours.',
        diyScript: false,
        fileIds: ['f1'],
        editorConfig,
      }),
      task('script-update', 'SUCCESS', 4, { taskId: 'v', scriptId: 'script-1', resultNum: 1, scriptContents: [] }),
      task('export-video', 'IN_PROGRESS', 5),
      // A picture tool used on the project's picture, and the owner's other project: neither is this project's flow.
      task('remove-background', 'SUCCESS', 6),
      { ...task('link-analysis', 'SUCCESS', 7), projectId: otherProject },
    ];
    await t.ctx.db.insert(tasks).values(rows);

    const answer = (await owner.ok('GET', '/project/getProjectTasks', { query: { projectId } })) as Record<string, unknown>[];
    expect(answer.map((item) => [item.kind, item.status])).toEqual([
      ['export-video', 'IN_PROGRESS'],
      ['script-update', 'SUCCESS'],
      ['link-video', 'SUCCESS'],
      ['link-analysis', 'SUCCESS'],
      ['link-analysis', 'FAILURE'],
    ]);
    expect(answer.map((item) => item.taskId)).toEqual([rows[4], rows[3], rows[2], rows[1], rows[0]].map((row) => row?.id));
    expect(answer[2]).toMatchObject({
      choices: { productName: 'Aurora bottle', productDescription: 'Cold for 24 hours.', diyScript: false, editorConfig },
      createTime: rows[2]?.createdAt.toISOString(),
    });
    expect(answer[1]).toMatchObject({ scriptId: 'script-1' });
    expect(answer[0]).not.toHaveProperty('choices');

    expect(await owner.ok('GET', '/project/getProjectTasks', { query: { projectId: (await create(owner, 'Empty')).projectId } })).toEqual(
      [],
    );
    expect((await stranger.call('GET', '/project/getProjectTasks', { query: { projectId } })).body.code).toBe(404);
  });

  it('deletes all the given projects or, when one is not the caller’s, none', async () => {
    const owner = await member('deleter@example.com');
    const stranger = await member('bystander@example.com');
    const mine = [(await create(owner, 'a')).projectId, (await create(owner, 'b')).projectId];
    const theirs = (await create(stranger, 'c')).projectId;
    const mixed = await owner.call('POST', '/project/deleteProject', { body: { projectIds: [...mine, theirs] } });
    expect(mixed.body.code).toBe(404);
    expect(((await owner.ok('POST', '/project/getProjects', { body: { page: 1, pageSize: 10 } })) as { total: number }).total).toBe(2);
    await owner.ok('POST', '/project/deleteProject', { body: { projectIds: mine } });
    expect(((await owner.ok('POST', '/project/getProjects', { body: { page: 1, pageSize: 10 } })) as { total: number }).total).toBe(0);
    expect(await stranger.ok('GET', '/project/getProjectById', { query: { projectId: theirs } })).toMatchObject({ projectName: 'c' });
  });

  it('an untitled project reads "Untitled project" in the reader\'s language until its product names it; a chosen name is kept', async () => {
    const owner = await member('namer@example.com');
    const stranger = await member('name-thief@example.com');
    const { projectId } = (await owner.ok('POST', '/project/createProject', { body: {} })) as { projectId: string };
    const nameIn = async (language: string) =>
      (
        (await owner.ok('GET', '/project/getProjectById', { query: { projectId }, headers: { 'accept-language': language } })) as {
          projectName: string;
        }
      ).projectName;
    expect([await nameIn('en'), await nameIn('zh-CN'), await nameIn('pt-BR')]).toEqual([
      'Untitled project',
      '未命名项目',
      'Projeto sem título',
    ]);
    const listed = (await owner.ok('POST', '/project/getProjects', {
      body: { page: 1, pageSize: 10 },
      headers: { 'accept-language': 'zh' },
    })) as {
      list: { projectName: string }[];
    };
    expect(listed.list.map((p) => p.projectName)).toEqual(['未命名项目']);

    // Another user's call names nothing of theirs.
    expect((await stranger.call('POST', '/project/nameAfterProduct', { body: { projectId, productName: 'Stolen' } })).body.code).toBe(404);
    expect(await nameIn('en')).toBe('Untitled project');

    // The product's name, spaces folded and cut to 100 characters.
    const long = `  Aurora   Insulated Bottle ${'x'.repeat(200)}`;
    const named = await owner.ok('POST', '/project/nameAfterProduct', { body: { projectId, productName: long } });
    expect(named).toEqual({ projectName: `Aurora Insulated Bottle ${'x'.repeat(100 - 'Aurora Insulated Bottle '.length)}` });
    // A name taken from the product follows the product's renames, in the list and the summary alike.
    expect(await owner.ok('POST', '/project/nameAfterProduct', { body: { projectId, productName: 'Aurora Bottle 2' } })).toEqual({
      projectName: 'Aurora Bottle 2',
    });
    expect(await nameIn('en')).toBe('Aurora Bottle 2');
    // Once the user renames it, it is theirs: the product's next rename leaves it.
    await owner.ok('POST', '/project/updateProjectFileInfo', { body: { projectId, fileName: 'Bottle launch' } });
    expect(await owner.ok('POST', '/project/nameAfterProduct', { body: { projectId, productName: 'Aurora Bottle 3' } })).toEqual({
      projectName: 'Bottle launch',
    });

    // A name the user gave, at creation or by renaming, is never replaced by a product's.
    const chosen = await create(owner, 'Spring campaign');
    expect(await owner.ok('POST', '/project/nameAfterProduct', { body: { projectId: chosen.projectId, productName: 'Bottle' } })).toEqual({
      projectName: 'Spring campaign',
    });
    const { projectId: renamed } = (await owner.ok('POST', '/project/createProject', { body: {} })) as { projectId: string };
    await owner.ok('POST', '/project/updateProjectFileInfo', { body: { projectId: renamed, fileName: 'Mine' } });
    expect(await owner.ok('POST', '/project/nameAfterProduct', { body: { projectId: renamed, productName: 'Bottle' } })).toEqual({
      projectName: 'Mine',
    });
  });

  it('is closed to users who have not activated', async () => {
    const inactive = new Browser(t.app);
    await inactive.devLogin('not-yet@example.com');
    const res = await inactive.call('POST', '/project/createProject', { body: { projectName: 'x' } });
    expect(res.body.code).toBe(403);
  });
});
