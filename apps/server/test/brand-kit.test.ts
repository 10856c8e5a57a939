import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRAND_FONT_IDS, BRAND_KIT_DEFAULT_CTA, type BrandKitView, brandKitDefault, type LibraryAsset, LOCALES } from '@reelsmith/contract';
import { BRAND_FONT_FILES, brandFont, locateTools } from '@reelsmith/media';
import { makeImage, makeVideo } from '@reelsmith/media/fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';

const KIT = {
  logoResKey: null,
  primaryColor: '#112233',
  secondaryColor: '#ABCDEF',
  fontId: 'noto-serif',
  callToAction: '  Buy it today  ',
};

describe('brand kit fonts', () => {
  it('ships a font file for every typeface of the contract', () => {
    expect(Object.keys(BRAND_FONT_FILES).sort()).toEqual([...BRAND_FONT_IDS].sort());
    for (const id of BRAND_FONT_IDS) {
      const { path } = brandFont(id);
      // A TrueType file: the renderer gets a real font, not a missing-glyph fallback.
      expect(readFileSync(path).subarray(0, 4).toString('hex')).toBe('00010000');
    }
  });
});

describe.each(testDatabases())('brand kit on $name', (testDb) => {
  const t = appOn(testDb);
  const dir = mkdtempSync(join(tmpdir(), 'brand-kit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = async (browser: Browser) => (await browser.ok('GET', '/brand-kit/get')) as BrandKitView;
  const save = (browser: Browser, body: unknown) => browser.call('POST', '/brand-kit/save', { body });
  /** The same signed-in user in another language. */
  const speaking = (browser: Browser, locale: string) => {
    const other = new Browser(t.app, locale);
    for (const [name, value] of browser.cookies) other.cookies.set(name, value);
    return other;
  };
  const uploadLogo = async (browser: Browser, bytes?: Buffer) => {
    const answer = await upload(t, browser, bytes ?? (await makeImage(120, 60, 'png')), 'png', 'logo.png');
    return answer.body.data as LibraryAsset & { resKey: string };
  };

  it('answers the default kit, in the caller language, to a user who has not saved one', async () => {
    expect(brandKitDefault('en')).toMatchObject({ primaryColor: '#f7f5f0', secondaryColor: '#ff7a45', fontId: 'noto-sans' });
    expect(BRAND_KIT_DEFAULT_CTA).toEqual({ en: 'Shop now', zh: '立即购买', pt: 'Compre agora' });
    const { browser } = await activeMember(t, 'fresh');
    for (const locale of LOCALES) {
      expect(await get(speaking(browser, locale))).toEqual({
        ...brandKitDefault(locale),
        logoUrl: null,
        logoName: null,
        isDefault: true,
      });
    }
  });

  it('saves a kit with a logo and reads it back: colours lower-case, the call to action trimmed', async () => {
    const { browser } = await activeMember(t, 'saver');
    const logo = await uploadLogo(browser);
    const saved = (await save(browser, { ...KIT, logoResKey: logo.resKey })).body;
    expect(saved.code).toBe(0);
    const expected = {
      logoResKey: logo.resKey,
      logoName: 'logo.png',
      primaryColor: '#112233',
      secondaryColor: '#abcdef',
      fontId: 'noto-serif',
      callToAction: 'Buy it today',
      isDefault: false,
    };
    expect(saved.data).toMatchObject(expected);
    const read = await get(browser);
    expect(read).toMatchObject(expected);
    const logoFile = await t.app.inject({ method: 'GET', url: read.logoUrl as string });
    expect(logoFile.statusCode).toBe(200);

    // Saved again without a logo: the kit is replaced whole.
    await browser.ok('POST', '/brand-kit/save', { body: { ...KIT, callToAction: 'Again' } });
    expect(await get(browser)).toMatchObject({ logoResKey: null, logoUrl: null, callToAction: 'Again' });
  });

  it('refuses bad input with a message in the caller language, changing nothing', async () => {
    const { browser } = await activeMember(t, 'validator');
    await browser.ok('POST', '/brand-kit/save', { body: KIT });
    const bad = [
      { ...KIT, primaryColor: 'red' },
      { ...KIT, secondaryColor: '#12345' },
      { ...KIT, callToAction: '   ' },
      { ...KIT, callToAction: 'x'.repeat(41) },
      { ...KIT, fontId: 'comic-sans' },
      { ...KIT, extra: true },
      { primaryColor: '#000000' },
    ];
    for (const body of bad) {
      const answer = await save(browser, body);
      expect(answer.body.code, JSON.stringify(body)).toBe(40000);
    }
    const messages: Record<string, string> = {};
    for (const locale of LOCALES) {
      messages[locale] = (await save(speaking(browser, locale), { ...KIT, callToAction: '' })).body.message;
    }
    expect(messages.en).toMatch(/^Invalid request: callToAction: /);
    expect(messages.zh).toMatch(/^请求无效：callToAction: /);
    expect(messages.pt).toMatch(/^Solicitação inválida: callToAction: /);
    expect(await get(browser)).toMatchObject({ primaryColor: '#112233', callToAction: 'Buy it today' });
  });

  it('takes only the caller own stored picture as the logo: another user file, a missing one or a video is refused', async () => {
    const owner = await activeMember(t, 'logo-owner');
    const other = await activeMember(t, 'logo-thief');
    const logo = await uploadLogo(owner.browser);
    await owner.browser.ok('POST', '/brand-kit/save', { body: { ...KIT, logoResKey: logo.resKey, callToAction: 'Mine' } });

    await other.browser.ok('POST', '/brand-kit/save', { body: KIT });
    const stolen = await save(other.browser, { ...KIT, logoResKey: logo.resKey });
    expect(stolen.body).toMatchObject({ code: 404, message: 'Not found.' });
    const missing = await save(other.browser, { ...KIT, logoResKey: `u/${other.userId}/nothing.png` });
    expect(missing.body).toMatchObject({ code: 404, message: 'Not found.' });
    // The other user still sees their own kit, nothing of the owner's.
    const theirs = await get(other.browser);
    expect(theirs).toMatchObject({ logoResKey: null, callToAction: 'Buy it today' });
    expect(JSON.stringify(theirs)).not.toContain('Mine');

    const video = await makeVideo(locateTools(), join(dir, 'clip.mp4'), { seconds: 1 });
    const clip = (await upload(t, owner.browser, readFileSync(video), 'mp4', 'clip.mp4')).body.data as LibraryAsset;
    const refused = await save(speaking(owner.browser, 'zh'), { ...KIT, logoResKey: clip.resKey });
    expect(refused.body.code).toBe(40090);
    expect(refused.body.message).toContain('SVG');
    expect(refused.body.message).toContain('徽标');
    expect(await get(owner.browser)).toMatchObject({ logoResKey: logo.resKey, callToAction: 'Mine' });
  });

  it('refuses an SVG logo at upload: the library stores only pictures it can check', async () => {
    const { browser } = await activeMember(t, 'svg');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image href="file:///etc/passwd"/></svg>');
    const answer = await upload(t, browser, svg, 'png', 'logo.svg');
    expect(answer.body.code).not.toBe(0);
    expect(await get(browser)).toMatchObject({ logoResKey: null, isDefault: true });
  });

  it('forgets the logo when its file is deleted from the library, keeping the rest of the kit', async () => {
    const { browser } = await activeMember(t, 'deleter');
    const logo = await uploadLogo(browser);
    await browser.ok('POST', '/brand-kit/save', { body: { ...KIT, logoResKey: logo.resKey } });
    await browser.ok('POST', '/assert/delete', { body: { fileIds: [logo.fileId] } });
    expect(await get(browser)).toMatchObject({ logoResKey: null, logoUrl: null, fontId: 'noto-serif', isDefault: false });
  });

  it('refuses a caller who is not signed in, or not active', async () => {
    const anonymous = new Browser(t.app);
    expect((await anonymous.call('GET', '/brand-kit/get')).body.code).toBe(401);
    expect((await save(anonymous, KIT)).body.code).toBe(401);
    const inactive = new Browser(t.app);
    await inactive.devLogin('inactive-brand@example.com');
    expect((await inactive.call('GET', '/brand-kit/get')).body.code).toBe(403);
    expect((await save(inactive, KIT)).body.code).toBe(403);
  });
});
