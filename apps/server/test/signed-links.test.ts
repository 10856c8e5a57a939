// Signed links are the authority of every file, thumbnail, upload and draft the browser fetches without the session
// (decision "Signed links"). These are the attacks of the outside review: a download name that smuggles in other
// fields, parameters the signature does not cover, an expiry stretched past the configured lifetime.
import type { LibraryAsset } from '@reelsmith/contract';
import { makeImage } from '@reelsmith/media/fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUrlSigner } from '../src/http/signedUrl.js';
import { appOn } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';

let png: Buffer;
beforeAll(async () => {
  png = await makeImage(64, 48, 'png');
});

describe('the URL signer', () => {
  const T0 = 1_800_000_000_000;
  const signer = createUrlSigner('s'.repeat(40), () => T0);
  const link = signer.link('/api/file/object', { fields: ['key'], optional: ['download'], ttlMs: 60_000 });
  const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

  it('verifies what it signed, with the optional field or without', () => {
    expect(link.verify(queryOf(link.sign({ key: 'u/a/b.png' })))).toEqual({ key: 'u/a/b.png', expires: T0 + 60_000 });
    expect(link.verify(queryOf(link.sign({ key: 'u/a/b.png', download: 'x&key=y.png' })))).toEqual({
      key: 'u/a/b.png',
      download: 'x&key=y.png',
      expires: T0 + 60_000,
    });
  });

  it('refuses a field moved into another, an unknown field, a repeated one and a stretched expiry', () => {
    const signed = queryOf(link.sign({ key: 'k', download: 'a' }));
    const refused = [
      // The same characters, cut differently between the fields.
      { ...signed, key: 'k&download=a', download: undefined },
      { ...signed, extra: '1' },
      { ...signed, key: ['k', 'k'] },
      { ...signed, expires: String(T0 + 10 ** 12) },
      { ...signed, expires: `${signed.expires}.0` },
      { ...signed, signature: undefined },
      Object.fromEntries(Object.entries(signed).filter(([name]) => name !== 'key')),
    ].map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)));
    for (const query of refused) expect(link.verify(query)).toBeNull();
  });

  it('refuses a link longer-lived than the configured lifetime even when it is correctly signed', () => {
    const later = createUrlSigner('s'.repeat(40), () => T0 + 10 * 60_000);
    const long = later.link('/api/file/object', { fields: ['key'], ttlMs: 3_600_000 });
    const short = signer.link('/api/file/object', { fields: ['key'], ttlMs: 60_000 });
    expect(short.verify(queryOf(long.sign({ key: 'k' })))).toBeNull();
  });

  it('refuses a link made for another path or another set of fields', () => {
    const other = signer.link('/api/file/upload', { fields: ['key'], ttlMs: 60_000 });
    expect(link.verify(queryOf(other.sign({ key: 'k' })))).toBeNull();
    const draft = signer.link('/api/file/object', { fields: ['key', 'projectId'], ttlMs: 60_000 });
    const signed = queryOf(draft.sign({ key: 'k', projectId: 'd' }));
    const { projectId, ...rest } = signed;
    expect(link.verify({ ...rest, download: projectId })).toBeNull();
  });
});

describe.each(testDatabases())('signed file links on $name', (testDb) => {
  const t = appOn(testDb);
  const fetch = (url: string) => t.app.inject({ method: 'GET', url });

  it('a download name cannot re-point a link to another user file', async () => {
    const victim = await activeMember(t, 'victim');
    const theirs = (await upload(t, victim.browser, png, 'png')).body.data as LibraryAsset;
    const attacker = await activeMember(t, 'attacker');
    const mine = (await upload(t, attacker.browser, png, 'png')).body.data as LibraryAsset;
    const far = '99999999999999';
    await attacker.browser.ok('POST', '/assert/rename', {
      body: { fileId: mine.fileId, fileName: `x&expires=${far}&key=${theirs.resKey}&kez=` },
    });
    const listed = (await attacker.browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 10 } })) as {
      list: LibraryAsset[];
    };
    const download = listed.list.find((a) => a.fileId === mine.fileId)?.downloadUrl as string;
    const signed = new URL(download, 'http://x').searchParams;
    const tail = `.png&expires=${signed.get('expires')}&key=${mine.resKey}`;
    const forged =
      `${download.split('?')[0]}?download=x&expires=${far}&key=${encodeURIComponent(theirs.resKey as string)}` +
      `&kez=${encodeURIComponent(tail)}&signature=${signed.get('signature')}`;
    const res = await fetch(forged);
    expect(res.statusCode).toBe(403);
    expect(res.rawPayload.equals(png)).toBe(false);
    // The honest link still serves the attacker's own file, under its odd name, and only for the configured time.
    const own = await fetch(download);
    expect(own.statusCode).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(String(own.headers['cache-control']))?.[1]);
    expect(maxAge).toBeLessThanOrEqual(t.ctx.settings.fileUrlTtlSeconds);
  });

  it('a parameter the signature does not cover is refused, whatever its name', async () => {
    const { browser } = await activeMember(t);
    const asset = (await upload(t, browser, png, 'png')).body.data as LibraryAsset;
    const url = asset.downloadUrl as string;
    for (const extra of ['download%3Dq=1', 'download=inline.png', 'extra=1', 'key=u/x/y.png', 'signature=x']) {
      expect((await fetch(`${url}&${extra}`)).statusCode).toBe(403);
    }
    expect((await fetch(url)).statusCode).toBe(200);
  });
});
