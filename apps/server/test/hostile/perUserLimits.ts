// 14. Per-user limits (decisions "Import limits" and "Storage quota"): what one user can make the server hold. URL
// imports: a user with IMPORTS_PER_USER imports under way is refused the next one at once (429), and nothing changes.
// Storage: a user whose quota is nearly used up is refused every way of storing more (an upload link with or without
// its size, a captured page, a URL import into a project), with the quota's message, and nothing changes.
import { ERRORS } from '@reelsmith/contract';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { storedObjects } from '../../src/db/schema.js';
import { activeMember } from '../support/files.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import type { Refusal } from './support/campaign.js';

const CATEGORY = 'per-user limits';

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;
const BUSY = { codes: [ERRORS.importsBusy.code], key: 'importsBusy', locale: 'en' } as const satisfies Refusal;
const FULL = { codes: [ERRORS.storageQuotaExceeded.code], key: 'storageQuotaExceeded', locale: 'en' } as const satisfies Refusal;

export function perUserLimitAttacks(arena: Arena) {
  const importCall = callNamed('linkVideoFileUpload');
  const putUrlCall = callNamed('filePutUrl');
  const pageCall = callNamed('linkVideoPageUpload');

  /** A member of their own with a project, so what their imports add stays out of the arena's holdings. */
  async function importer(name: string) {
    const member = await activeMember(arena.t, name);
    const { projectId } = (await member.browser.ok('POST', '/project/createProject', { body: { projectName: name } })) as {
      projectId: string;
    };
    return { ...member, projectId };
  }

  describe(CATEGORY, () => {
    it('refuses an import past the per-user limit at once while the others run, changing nothing', async () => {
      const { campaign, site, t } = arena;
      const limit = t.ctx.settings.importsPerUser;
      const { browser, projectId } = await importer('importer');
      let release = () => {};
      const heldUntil = new Promise<void>((resolve) => {
        release = resolve;
      });
      const body = await makeImage(64, 48, 'png');
      const paths = Array.from({ length: limit + 1 }, (_, i) => `/held-${i}.png`);
      for (const path of paths) site.routes.set(path, { type: 'image/png', body, heldUntil });
      const importOf = (path: string) => ({ body: { projectId, urls: [`${site.base}${path}`] } });

      const running = paths.slice(0, limit).map((path) => campaign.send(CATEGORY, browser, importCall, importOf(path)));
      await expect.poll(() => paths.slice(0, limit).every((path) => site.arrivals.get(path) === 1)).toBe(true);
      await campaign.expectNoChange(CATEGORY, 'POST /link-video/file/upload', async () => {
        const refused = await campaign.send(CATEGORY, browser, importCall, importOf(paths[limit] as string));
        campaign.expectRefused(CATEGORY, refused, `import ${limit + 1} of ${limit}`, BUSY);
      });
      expect(site.arrivals.get(paths[limit] as string)).toBeUndefined();
      release();
      // The imports under way were not disturbed: each ends imported.
      for (const answer of await Promise.all(running)) expect(answer.body.code).toBe(0);
      campaign.figures.of(CATEGORY).answered += limit;
      campaign.figures.note(CATEGORY, 'imports refused past the limit');
    });

    it('refuses every way of storing past the quota, with its message, changing nothing', async () => {
      const { campaign, site, t } = arena;
      const { browser, userId, projectId } = await importer('hoarder');
      // The quota all but used: what is already stored is set up directly, not uploaded 5 GB at a time.
      const room = 100;
      const filler = `u/${userId}/filler.mp4`;
      await t.ctx.db.insert(storedObjects).values({ key: filler, userId, kind: 'file', size: t.ctx.settings.storageQuotaBytes - room });
      const picture = await makeImage(64, 48, 'png');
      site.routes.set('/quota.png', { type: 'image/png', body: picture });
      const attempts: { what: string; api: ApiCall; request: Parameters<typeof campaign.send>[3] }[] = [
        { what: 'an upload link of a declared size', api: putUrlCall, request: { query: { format: 'png', size: String(room + 1) } } },
        { what: 'an upload link of no size', api: putUrlCall, request: { query: { format: 'mp4' } } },
        { what: 'a captured page', api: pageCall, request: { body: { html: `<p>${'x'.repeat(room)}</p>` } } },
        { what: 'an import', api: importCall, request: { body: { projectId, urls: [`${site.base}/quota.png`] } } },
      ];
      try {
        await campaign.expectNoChange(CATEGORY, 'storing past the quota', async () => {
          for (const { what, api, request } of attempts) {
            const answer = await campaign.send(CATEGORY, browser, api, request);
            campaign.expectRefused(CATEGORY, answer, `${what} past the quota`, FULL);
            campaign.figures.note(CATEGORY, 'stores refused past the quota');
          }
        });
      } finally {
        await t.ctx.db.delete(storedObjects).where(eq(storedObjects.key, filler));
      }
    });
  });
}
