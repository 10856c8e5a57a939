import { describe, expect, it } from 'vitest';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { API, appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';

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

  it('is closed to users who have not activated', async () => {
    const inactive = new Browser(t.app);
    await inactive.devLogin('not-yet@example.com');
    const res = await inactive.call('POST', '/project/createProject', { body: { projectName: 'x' } });
    expect(res.body.code).toBe(403);
  });
});
