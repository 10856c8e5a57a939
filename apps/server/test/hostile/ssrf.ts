// 8. The SSRF matrix through every field that makes the server fetch a link: loopback, the private ranges, the
// cloud metadata address, IPv6 loopback and IPv4-mapped, 0.0.0.0, numeric forms of 127.0.0.1, localhost, other
// schemes, and redirects from an allowed (public) site to private addresses. Calls that fetch while the caller
// waits refuse at once and change nothing; tasks and URL imports end FAILURE with the same clear error, their
// credits returned, none left running, nothing stored. A worker runs here, so this has an app of its own.
import { type Batch, ERRORS, HttpUrl, type LibraryAsset } from '@reelsmith/contract';
import { drawnPortrait, makeImage } from '@reelsmith/media/fixtures';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { startBatchDriver } from '../../src/modules/batches/driver.js';
import { grant } from '../../src/modules/points/ledger.js';
import { startWorker } from '../../src/modules/tasks/worker.js';
import { appOn, Browser } from '../support/app.js';
import type { TestDatabase } from '../support/databases.js';
import { activeMember, fixtureServer, upload } from '../support/files.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import { Campaign } from './support/campaign.js';
import type { Figures } from './support/figures.js';
import { type Own, ownRequest } from './support/ownRequests.js';
import { type Field, fieldsOf, pathText, withField } from './support/schema.js';
import { snapshot } from './support/snapshot.js';

const CATEGORY = 'SSRF';

/**
 * How each field that takes a link uses it: fetched while the caller waits, by a task (after a check at submit of
 * what the link itself shows, for the paid tools), by a URL import, or never.
 */
const HANDLING: Record<string, 'at once' | 'task' | 'checked, then task' | 'import' | 'not fetched' | 'webhook' | 'batch'> = {
  'assetUrlTaskSubmit url': 'import',
  'linkVideoFileUpload urls.0': 'at once',
  'imageClothDesc url': 'at once',
  'submit link-analysis productLink': 'task',
  // Kept as the project's label; link-video works from the files analysis imported.
  'submit link-video productLink': 'not fetched',
  'submit remove-background imageUrl': 'at once',
  'submit product-background imageUrl': 'at once',
  'submit expand-image imageUrl': 'at once',
  'submit enlarge-image imageUrl': 'at once',
  'submit image-to-video image.imageUrl': 'checked, then task',
  'submit text-to-image image.imageUrl': 'checked, then task',
  'submit virtual-try-on model.imageUrl': 'checked, then task',
  'submit virtual-try-on top.imageUrl': 'checked, then task',
  'submit virtual-try-on bottom.imageUrl': 'checked, then task',
  'submit avatar-video presenter.imageUrl': 'checked, then task',
  // The Avatar tool's script from a product page: read while the caller waits, nothing imported.
  'avatarScript productLink': 'at once',
  // Checked when registered for what the URL shows; resolved, checked and never redirected at every delivery
  // (decision "Webhooks"; test/webhooks.test.ts sends to redirects and to a name that resolves to a private address).
  'webhookEndpointCreate url': 'webhook',
  // A batch's rows are read by the link-analysis tasks its driver submits (decision "Batch"); a quote fetches nothing.
  'batchCreate rows.0.link': 'batch',
  'batchQuote rows.0.link': 'not fetched',
};

/** Fields that take a link without the HttpUrl schema. */
const PLAIN_LINKS = new Set(['imageClothDesc url', 'webhookEndpointCreate url']);

type Target = { api: ApiCall; field: Field; name: string };

const targets = (): Target[] =>
  API_CALLS.flatMap((api) =>
    [...fieldsOf(api.call.query), ...fieldsOf(api.call.body)]
      .map((field) => ({ api, field, name: `${api.name} ${pathText(field.path)}` }))
      .filter(({ field, name }) => field.schema === HttpUrl || PLAIN_LINKS.has(name)),
  );

interface Link {
  what: string;
  url: (site: { base: string }) => string;
  /** address: the link names an address that is not public; redirect: a public site sends the fetch to one; scheme: not http(s). */
  refused: 'address' | 'redirect' | 'scheme';
}

const literal = (what: string, url: string): Link => ({ what, url: () => url, refused: 'address' });
const MATRIX: Link[] = [
  literal('loopback', 'http://127.0.0.1/admin'),
  literal('10/8', 'http://10.0.0.1/'),
  literal('172.16/12', 'http://172.16.0.1/'),
  literal('172.16/12, its end', 'http://172.31.255.254/'),
  literal('192.168/16', 'http://192.168.1.1/'),
  literal('cloud metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
  literal('[::1]', 'http://[::1]/'),
  literal('[::ffff:127.0.0.1]', 'http://[::ffff:127.0.0.1]/'),
  literal('0.0.0.0', 'http://0.0.0.0/'),
  literal('decimal 127.0.0.1', 'http://2130706433/'),
  literal('octal 127.0.0.1', 'http://0177.0.0.1/'),
  literal('hex 127.0.0.1', 'http://0x7f000001/'),
  literal('short 127.0.0.1', 'http://127.1/'),
  literal('localhost', 'http://localhost:3000/'),
  { what: 'file://', url: () => 'file:///etc/passwd', refused: 'scheme' },
  { what: 'gopher://', url: () => 'gopher://127.0.0.1:6379/_FLUSHALL', refused: 'scheme' },
  { what: 'redirect to the metadata address', url: (site) => `${site.base}/to/metadata`, refused: 'redirect' },
  { what: 'redirect to 10/8', url: (site) => `${site.base}/to/private`, refused: 'redirect' },
  { what: 'redirect to a port of loopback not allowed', url: (site) => `${site.base}/to/loopback`, refused: 'redirect' },
];

const BLOCKED = ['importBlocked', 'pageBlocked'] as const;
const BLOCKED_CODES = BLOCKED.map((key) => ERRORS[key].code);
const REFUSED_AT_ONCE: Record<Link['refused'], number[]> = {
  address: BLOCKED_CODES,
  redirect: BLOCKED_CODES,
  // Not a link (HttpUrl refuses it) or, for the cloth check that also takes storage keys, a key of nothing.
  scheme: [ERRORS.validation.code, ERRORS.notFound.code],
};

/** The request with the link in the field: a picture given by link replaces the picture given by key. */
function withLink(base: Record<string, unknown>, field: Field, url: string): unknown {
  const name = String(field.path.at(-1));
  if (name === 'imageUrl') {
    const parent = field.path.slice(0, -1);
    return parent.length ? withField(base, parent, { imageUrl: url }) : { ...base, resKey: undefined, imageUrl: url };
  }
  if (typeof field.path.at(-1) === 'number') return withField(base, field.path.slice(0, -1), [url]);
  return withField(base, field.path, url);
}

/** A task or URL import the attack started, to be checked once the worker has ended it. */
interface Started {
  target: Target;
  link: Link;
  id: string;
}

export function ssrfAttacks(testDb: TestDatabase, figures: Figures) {
  describe(CATEGORY, () => {
    const site = fixtureServer();
    // Every task of the matrix is submitted before a worker starts: the user's share of waiting tasks is lifted.
    const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: site.host, TASKS_WAITING_PER_USER: '1000000' }));
    const state = {} as { campaign: Campaign; attacker: Browser; zh: Browser; userId: string; own: Own; portraitFileId: string };

    beforeAll(async () => {
      state.campaign = new Campaign(t, figures);
      const { browser, userId } = await activeMember(t, 'ssrf');
      Object.assign(state, { attacker: browser, userId, zh: new Browser(t.app, 'zh-CN') });
      for (const [name, value] of browser.cookies) state.zh.cookies.set(name, value);
      // Enough for every task of the matrix to be charged at once; each is refunded when it fails.
      await grant(t.ctx.db, userId, 1_000_000, 'ADJUSTMENT', { key: 'hostile-ssrf' });
      const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'ssrf' } })) as {
        projectId: string;
      };
      const image = (await upload(t, browser, await makeImage(64, 64, 'png'), 'png')).body.data as LibraryAsset;
      // A presenter of their own, for the tools that take one beside a link.
      const portrait = (await upload(t, browser, await drawnPortrait(), 'jpeg')).body.data as LibraryAsset;
      const { presenterId } = (await browser.ok('POST', '/video/avatar/presenters', {
        body: { resKey: portrait.resKey, name: 'ssrf presenter', gender: 'female', consent: true },
      })) as { presenterId: string };
      state.portraitFileId = portrait.fileId;
      state.own = {
        presenterId,
        projectId,
        imageFileId: image.fileId,
        imageResKey: image.resKey as string,
        uploadKey: '',
        videoTaskId: '',
        scriptId: '',
      };
      site.routes.set('/to/metadata', { redirect: 'http://169.254.169.254/latest/meta-data/' });
      site.routes.set('/to/private', { redirect: 'http://10.0.0.1/' });
      site.routes.set('/to/loopback', { redirect: 'http://127.0.0.1:1/' });
    });

    it('knows how every field that takes a link uses it', () => {
      expect(
        targets()
          .map((target) => target.name)
          .sort(),
      ).toEqual(Object.keys(HANDLING).sort());
      figures.note(CATEGORY, 'link fields', targets().length);
      figures.note(CATEGORY, 'links', MATRIX.length);
    });

    const send = (target: Target, url: string) => {
      const request = withLink(ownRequest(target.api, state.own), target.field, url);
      const where = target.api.call.body ? 'body' : 'query';
      return state.campaign.send(CATEGORY, state.attacker, target.api, { [where]: request });
    };

    for (const target of targets().filter((x) => HANDLING[x.name] === 'at once')) {
      it(`${target.name} refuses every link of the matrix at once`, async () => {
        await state.campaign.expectNoChange(CATEGORY, target.name, async () => {
          for (const link of MATRIX) {
            const answer = await send(target, link.url(site));
            state.campaign.expectRefused(CATEGORY, answer, `${target.name} = ${link.what}`, { codes: REFUSED_AT_ONCE[link.refused] });
          }
        });
      });
    }

    for (const target of targets().filter((x) => HANDLING[x.name] === 'webhook')) {
      it(`${target.name} refuses every private address and other scheme of the matrix when registered`, async () => {
        const codes = [ERRORS.webhookUrlBlocked.code, ERRORS.webhookUrlInvalid.code];
        await state.campaign.expectNoChange(CATEGORY, target.name, async () => {
          // A public site that redirects is a fine endpoint to register: its redirects are never followed.
          for (const link of MATRIX.filter((l) => l.refused !== 'redirect')) {
            const answer = await send(target, link.url(site));
            state.campaign.expectRefused(CATEGORY, answer, `${target.name} = ${link.what}`, { codes });
          }
        });
      });
    }

    it('tasks and URL imports of the matrix fail with a clear error, refunded, none left running, nothing stored', async () => {
      const { campaign, userId } = state;
      const before = await snapshot(t.ctx);
      const started: Started[] = [];
      const later = ['task', 'checked, then task', 'import'];
      for (const target of targets().filter((x) => later.includes(HANDLING[x.name] as string))) {
        for (const link of MATRIX) {
          const answer = await send(target, link.url(site));
          const what = `${target.name} = ${link.what}`;
          if (link.refused === 'scheme' || (link.refused === 'address' && HANDLING[target.name] === 'checked, then task')) {
            campaign.expectRefused(CATEGORY, answer, what, { codes: REFUSED_AT_ONCE[link.refused] });
            continue;
          }
          expect(answer.body.code, `${what}: ${answer.body.message}`).toBe(0);
          campaign.figures.of(CATEGORY).answered++;
          const data = answer.body.data as { taskId?: string; fileId?: string };
          started.push({ target, link, id: (data.taskId ?? data.fileId) as string });
        }
      }

      const errors: unknown[] = [];
      const log = { info() {}, warn() {}, error: (...args: unknown[]) => errors.push(args) };
      const worker = startWorker(t.ctx, t.ctx.tasks, { concurrency: 2, pollMs: 25, log });
      const open = async () =>
        Number(
          (
            await queryRows<{ n: string | number }>(
              t.ctx.db,
              sql`select count(*) as n from tasks where user_id = ${userId} and status in ('SUBMITTED', 'IN_PROGRESS')`,
            )
          )[0]?.n,
        );
      while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      await worker.stop();
      figures.of(CATEGORY).serverErrors += errors.length;
      expect(errors, 'the worker logged errors').toEqual([]);

      const messages = BLOCKED.map((key) => ERRORS[key].zh);
      for (const { target, link, id } of started) {
        const what = `${target.name} = ${link.what}`;
        if (HANDLING[target.name] === 'import') {
          const urlTask = API_CALLS.find((api) => api.name === 'assetUrlTaskQuery') as ApiCall;
          const answer = await campaign.send(CATEGORY, state.zh, urlTask, { query: { fileId: id } });
          expect(answer.body.data, what).toMatchObject({ status: -1, fileKey: null, fileUrl: null });
          expect(messages, what).toContain((answer.body.data as { errorMsg: string }).errorMsg);
        } else {
          const query = API_CALLS.find((api) => api.name === `query ${target.api.kind}`) as ApiCall;
          const answer = await campaign.send(CATEGORY, state.zh, query, { query: { taskId: id } });
          const task = answer.body.data as { status: string; error?: string };
          expect(task.status, what).toBe('FAILURE');
          expect(messages, what).toContain((JSON.parse(task.error ?? '{}') as { message?: string }).message);
        }
        campaign.figures.of(CATEGORY).answered++;
      }
      campaign.figures.note(CATEGORY, 'tasks and imports failed', started.length);

      const after = await snapshot(t.ctx);
      expect(after.balances, 'credits after the failed tasks').toEqual(before.balances);
      expect(after.ledgerSum).toBe(before.ledgerSum);
      expect(after.files, 'files stored by failed tasks').toEqual(before.files);
      const unpaid = await queryRows<{ task_id: string }>(
        t.ctx.db,
        sql`select task_id from points_ledger where user_id = ${userId} and task_id is not null group by task_id having sum(points_change) <> 0`,
      );
      expect(unpaid).toEqual([]);
      const stored = await queryRows<{ id: string }>(t.ctx.db, sql`select id from files where user_id = ${userId} and res_key is not null`);
      // Only the pictures the user put there: the picture and the presenter's portrait.
      expect(stored.map((row) => row.id).sort()).toEqual([state.own.imageFileId, state.portraitFileId].sort());
    });

    it("a batch's rows of the matrix fail with the same clear error, refunded, nothing stored", async () => {
      const { campaign, attacker, zh } = state;
      const create = API_CALLS.find((api) => api.name === 'batchCreate') as ApiCall;
      const before = await snapshot(t.ctx);
      const rowsOf = (links: Link[]) => ({ rows: links.map((link) => ({ link: link.url(site) })), options: { export: true } });
      for (const link of MATRIX.filter((l) => l.refused === 'scheme')) {
        const answer = await campaign.send(CATEGORY, attacker, create, { body: rowsOf([link]) });
        campaign.expectRefused(CATEGORY, answer, `batchCreate rows.0.link = ${link.what}`, { codes: REFUSED_AT_ONCE.scheme });
      }
      const fetched = MATRIX.filter((l) => l.refused !== 'scheme');
      const answer = await campaign.send(CATEGORY, attacker, create, { body: rowsOf(fetched) });
      expect(answer.body.code, answer.body.message).toBe(0);
      const { batchId } = answer.body.data as Batch;

      const errors: unknown[] = [];
      const log = { info() {}, warn() {}, error: (...args: unknown[]) => errors.push(args) };
      const worker = startWorker(t.ctx, t.ctx.tasks, { concurrency: 2, pollMs: 25, log });
      const driver = startBatchDriver(t.ctx, t.ctx.tasks, { concurrencyPerUser: 2, pollMs: 25, log });
      const get = API_CALLS.find((api) => api.name === 'batchGet') as ApiCall;
      let batch: Batch;
      do {
        await new Promise((resolve) => setTimeout(resolve, 50));
        batch = (await campaign.send(CATEGORY, zh, get, { query: { batchId } })).body.data as Batch;
      } while (batch.status === 'running');
      await Promise.all([driver.stop(), worker.stop()]);
      expect(errors, 'the worker or the batch driver logged errors').toEqual([]);
      const messages = BLOCKED.map((key) => ERRORS[key].zh);
      for (const [i, row] of batch.rows.entries()) {
        expect(row.status, fetched[i]?.what).toBe('failed');
        expect(messages, fetched[i]?.what).toContain(row.error);
      }
      campaign.figures.note(CATEGORY, 'batch rows failed', batch.rows.length);
      const after = await snapshot(t.ctx);
      expect(after.balances, 'credits after the failed rows').toEqual(before.balances);
      expect(after.files, 'files stored by failed rows').toEqual(before.files);
    });
  });
}
