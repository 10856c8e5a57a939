import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURED_PAGE_MAX_BYTES } from '@reelsmith/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkAnalysisTask } from '../../src/modules/link-video/analysis/task.js';
import { startWorker, type Worker } from '../../src/modules/tasks/worker.js';
import { appOn, Browser } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { activeMember, fixtureServer } from '../support/files.js';

const silent = { info() {}, warn() {}, error() {} };
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const NAME = 'Trailhead Merino Beanie';
/** A loopback address the server may not fetch: only the captured copy can be analysed. */
const BLOCKED_LINK = 'http://127.0.0.1:9/dp/B0BEANIE';

/** The page as the browser rendered it: the script that drew it is gone, its product is in the DOM. */
const capturedPage = (base: string) => `<!doctype html><html lang="en"><head><title>${NAME}</title></head><body>
<main><h1 id="productTitle">${NAME}</h1><p>Soft merino wool, warm on the trail.</p>
<img src="${base}/img/1.png" width="900" height="1200" alt="${NAME}"><img src="${base}/img/2.png" width="900" height="1200" alt="${NAME}">
</main></body></html>`;

interface Analysis {
  status: string;
  error?: string;
  productName?: string;
  productImages?: unknown[];
}

const storedPages = (dataDir: string, userId: string) => {
  try {
    return readdirSync(join(dataDir, 'files', 'u', userId, 'pages'));
  } catch {
    return [];
  }
};

describe.each(testDatabases())('captured pages on $name', (testDb) => {
  const fixture = fixtureServer();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host, EXTENSION_ORIGINS: EXTENSION }), [linkAnalysisTask]);
  let worker: Worker;
  beforeAll(async () => {
    for (const [i, red] of [200, 40].entries()) {
      const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: red, g: 120, b: 90 } } })
        .png()
        .toBuffer();
      fixture.routes.set(`/img/${i + 1}.png`, { type: 'image/png', body: png });
    }
    worker = startWorker(t.ctx, [linkAnalysisTask], { concurrency: 1, pollMs: 25, log: silent });
  });
  afterAll(() => worker.stop());

  const upload = (browser: Browser, html: string, origin = EXTENSION) =>
    browser.call('POST', '/link-video/page/upload', { body: { html }, headers: { origin } });

  const analyse = async (browser: Browser, resKey: string): Promise<Analysis> => {
    const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'Beanie' } })) as {
      projectId: string;
    };
    const submitted = await browser.call('POST', '/task/v1/link-analysis/submit', {
      body: { projectId, productLink: BLOCKED_LINK, resKey },
    });
    if (submitted.body.code !== 0) return { status: 'REFUSED', error: JSON.stringify(submitted.body) };
    const { taskId } = submitted.body.data as { taskId: string };
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const state = (await browser.ok('GET', '/task/v1/link-analysis/query', { query: { taskId } })) as Analysis;
      if (state.status === 'SUCCESS' || state.status === 'FAILURE') return state;
    }
    throw new Error(`task ${taskId} did not finish`);
  };

  it('stores the page from the extension under the user and analyses it instead of fetching the link', async () => {
    const { browser, userId } = await activeMember(t, 'shopper');
    const answer = await upload(browser, capturedPage(fixture.base));
    expect(answer.body.code).toBe(0);
    const { resKey } = answer.body.data as { resKey: string };
    expect(resKey).toMatch(new RegExp(`^u/${userId}/pages/[0-9a-f-]{36}\\.html$`));
    expect(storedPages(t.ctx.settings.dataDir, userId)).toHaveLength(1);

    const state = await analyse(browser, resKey);
    expect(state).toMatchObject({ status: 'SUCCESS', productName: NAME });
    expect(state.productImages).toHaveLength(2);
  });

  it('is also accepted from the app itself', async () => {
    const { browser } = await activeMember(t, 'web');
    expect((await browser.call('POST', '/link-video/page/upload', { body: { html: '<p>hi</p>' } })).body.code).toBe(0);
  });

  it('refuses a signed-out caller, and an extension the operator did not list', async () => {
    const stranger = new Browser(t.app);
    expect((await upload(stranger, '<p>hi</p>')).body).toMatchObject({ code: 401, message: 'Please sign in first.' });

    const { browser, userId } = await activeMember(t, 'other-extension');
    const refused = await upload(browser, '<p>hi</p>', 'chrome-extension://pppppppppppppppppppppppppppppppp');
    expect(refused.body).toMatchObject({ code: 403, message: 'This request did not come from the Reelsmith app.' });
    expect(storedPages(t.ctx.settings.dataDir, userId)).toEqual([]);
  });

  it('accepts the listed extension only for its own calls', async () => {
    const { browser } = await activeMember(t, 'scoped');
    const answer = await browser.call('POST', '/project/createProject', { body: { projectName: 'x' }, headers: { origin: EXTENSION } });
    expect(answer.body).toMatchObject({ code: 403 });
  });

  it('refuses a page over the size cap in bytes, in the caller’s language, and keeps nothing', async () => {
    const { browser, userId } = await activeMember(t, 'hoarder');
    // Under the cap in characters, over it in UTF-8 bytes.
    const html = `<p>${'é'.repeat(CAPTURED_PAGE_MAX_BYTES / 2)}</p>`;
    const answer = await upload(browser, html);
    expect(answer.body).toMatchObject({ code: 40037, message: 'The captured page is larger than 10 MB.' });
    const zh = await browser.call('POST', '/link-video/page/upload', {
      body: { html },
      headers: { origin: EXTENSION, 'accept-language': 'zh' },
    });
    expect(zh.body.message).toBe('抓取的页面大于 10 MB。');
    expect(storedPages(t.ctx.settings.dataDir, userId)).toEqual([]);

    expect((await upload(browser, '   ')).body).toMatchObject({ code: 40000 });
  });

  it("refuses to analyse another user's captured page", async () => {
    const owner = await activeMember(t, 'owner');
    const { resKey } = (await upload(owner.browser, capturedPage(fixture.base))).body.data as { resKey: string };
    const thief = await activeMember(t, 'thief');
    const state = await analyse(thief.browser, resKey);
    expect(state.status).toBe('REFUSED');
    expect(JSON.parse(state.error ?? '{}')).toMatchObject({ code: 40035 });
  });
});
