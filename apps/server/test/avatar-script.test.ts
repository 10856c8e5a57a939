// The Avatar tool's script from a product link (decision "The Avatar tool"): the page read through the SSRF-safe
// fetcher, a script the tool can say written in the language asked (else the page's), nothing imported or charged;
// a page without a product, a missing page and a private address each refused in plain words.
import { avatarSeconds, ERRORS } from '@reelsmith/contract';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.js';
import { appOn } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer } from './support/files.js';
import { availableOf } from './support/points.js';

const [testDb] = testDatabases();

const productPage = `<!doctype html><html lang="en"><head><title>Lumi Solar Lamp | Northwind</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Lumi Solar Lamp',
  description: 'Charges in the sun by day and glows for ten hours at night. Waterproof, with no wires to run.',
  image: ['/img/1.png'],
  brand: { '@type': 'Brand', name: 'Northwind' },
  offers: { '@type': 'Offer', price: '24.90', priceCurrency: 'USD' },
})}</script></head><body><h1>Lumi Solar Lamp</h1></body></html>`;
const aboutPage = '<!doctype html><html lang="en"><head><title>About us</title></head><body><p>We are a small team.</p></body></html>';

describe(`a presenter's script from a product link on ${testDb?.name}`, () => {
  const fixture = fixtureServer();
  const t = appOn(testDb as NonNullable<typeof testDb>, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host }));

  it('writes a script the presenter can say from the product page, in the language asked, free and importing nothing', async () => {
    fixture.routes.set('/lamp.html', { type: 'text/html; charset=utf-8', body: Buffer.from(productPage) });
    const { browser, userId } = await activeMember(t, 'avatar-script');
    const before = await availableOf(t.ctx.db, userId);
    const written = (await browser.ok('POST', '/video/avatar/script', { body: { productLink: `${fixture.base}/lamp.html` } })) as {
      script: string;
      productName: string;
      language: string;
    };
    expect(written.productName).toBe('Lumi Solar Lamp');
    // The page is in English, so the script is.
    expect(written.language).toBe('en');
    expect(written.script).toMatch(/Lumi/);
    expect(written.script).not.toMatch(/\n/);
    expect(avatarSeconds(written.script)).toBeGreaterThan(5);
    expect(avatarSeconds(written.script)).toBeLessThanOrEqual(90);

    const chinese = (await browser.ok('POST', '/video/avatar/script', {
      body: { productLink: `${fixture.base}/lamp.html`, language: 'zh' },
    })) as { script: string; language: string };
    expect(chinese.language).toBe('zh');
    expect(chinese.script).toMatch(/\p{Script=Han}/u);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    const [kept] = await t.ctx.db.select({ n: count() }).from(files).where(eq(files.userId, userId));
    expect(kept?.n).toBe(0);
  });

  it('refuses a page without a product, a missing page and a private address, in plain words', async () => {
    fixture.routes.set('/about.html', { type: 'text/html', body: Buffer.from(aboutPage) });
    const { browser } = await activeMember(t, 'avatar-script-refused');
    const ask = (productLink: string) => browser.call('POST', '/video/avatar/script', { body: { productLink } });
    expect((await ask(`${fixture.base}/about.html`)).body).toMatchObject({ code: ERRORS.noProductFound.code });
    expect((await ask(`${fixture.base}/gone.html`)).body).toMatchObject({ code: ERRORS.pageHttpError.code });
    expect((await ask('http://10.0.0.1/product')).body).toMatchObject({ code: ERRORS.pageBlocked.code });
    expect((await ask('ftp://shop.example/product')).body).toMatchObject({ code: ERRORS.validation.code });
  });
});
