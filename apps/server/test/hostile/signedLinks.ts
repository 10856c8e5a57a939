// Routes outside the contract: the file server's GET and PUT and the draft file, whose signed link is the whole
// authority (decision "Signed links"). Every honest link the product hands out is taken apart and put back wrong:
// fields cut differently through a file name, parameters the signature does not cover, repeated and missing ones,
// expiries stretched or written another way, a signature of another link or kind, another user's key. Each must be
// refused with a clear error, serve no foreign byte and store nothing.
import { makeImage } from '@reelsmith/media/fixtures';
import { describe, expect, it } from 'vitest';
import { apiBase } from '../../src/settings.js';
import { putUrl } from '../support/files.js';
import type { Arena } from './support/arena.js';

const CATEGORY = 'signed links (outside the contract)';

type Query = Record<string, string | string[]>;

const parse = (url: string) => {
  const [path = '', search = ''] = url.split('?');
  const query: Query = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = value;
  return { path, query };
};

const serialise = (query: Query | string) => {
  if (typeof query === 'string') return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) params.append(name, item);
  return params.toString();
};

/** Every way of taking one honest link's query apart, given another honest link of the same kind. */
function tamperings(own: Query, other: Query): { what: string; query: Query | string }[] {
  const fields = Object.keys(own).filter((name) => name !== 'signature' && name !== 'expires');
  const expires = String(own.expires);
  const without = (name: string) => Object.fromEntries(Object.entries(own).filter(([n]) => n !== name));
  return [
    { what: 'a forged signature', query: { ...own, signature: 'forged' } },
    { what: 'an empty signature', query: { ...own, signature: '' } },
    { what: "another link's signature", query: { ...own, signature: String(other.signature) } },
    { what: 'two signatures', query: { ...own, signature: [String(own.signature), String(own.signature)] } },
    { what: 'a stretched expiry', query: { ...own, expires: String(Number(expires) + 1) } },
    { what: 'a far expiry', query: { ...own, expires: '99999999999999' } },
    { what: 'the expiry with a fraction', query: { ...own, expires: `${expires}.0` } },
    { what: 'the expiry with a plus', query: { ...own, expires: `+${expires}` } },
    { what: 'the expiry with spaces', query: { ...own, expires: ` ${expires}` } },
    { what: 'the expiry in hex', query: { ...own, expires: `0x${Number(expires).toString(16)}` } },
    { what: 'the expiry as an exponent', query: { ...own, expires: '1e20' } },
    { what: 'two expiries', query: { ...own, expires: [expires, '99999999999999'] } },
    { what: 'no expiry', query: without('expires') },
    { what: 'an unknown parameter', query: { ...own, extra: '1' } },
    { what: 'an encoded parameter name', query: `${serialise(own)}&download%3Dq=1` },
    { what: 'a parameter name in capitals', query: { ...own, KEY: 'x' } },
    { what: 'a prototype parameter', query: { ...own, __proto__x: '1', constructor: 'x' } },
    ...fields.flatMap((name) => [
      { what: `no ${name}`, query: without(name) },
      { what: `two ${name}s`, query: { ...own, [name]: [String(own[name]), String(other[name])] } },
      { what: `another ${name}`, query: { ...own, [name]: String(other[name]) } },
      { what: `${name} with a traversal`, query: { ...own, [name]: `${own[name]}/../../x` } },
      { what: `${name} moved into a new parameter`, query: { ...without(name), [`${name}x`]: String(own[name]) } },
    ]),
  ];
}

export function signedLinkAttacks(arena: Arena) {
  const { t } = arena;
  const base = () => apiBase(t.ctx.settings);

  async function attack(route: string, method: 'GET' | 'PUT', path: string, query: Query | string, refusedWith: number) {
    const figures = arena.campaign.figures.of(CATEGORY);
    figures.calls.add(`${method} ${route.split(' (')[0]}`);
    figures.requests++;
    const res = await t.app.inject({
      method,
      url: `${path}?${serialise(query)}`,
      ...(method === 'PUT' && { payload: await makeImage(24, 24, 'png'), headers: { 'content-type': 'image/png' } }),
    });
    if (res.statusCode >= 500) figures.serverErrors++;
    const leaked = arena.theirs.secrets.some((secret) => res.body.includes(secret));
    if (leaked) figures.leaks++;
    expect(leaked, `${method} ${route}: answer holds the victim's data`).toBe(false);
    arena.campaign.expectRefused(CATEGORY, { status: res.statusCode, body: res.json(), headers: res.headers }, `${method} ${route}`, {
      status: refusedWith,
    });
  }

  describe(CATEGORY, () => {
    it('refuses every tampered file link (GET /file/object), the file-name forgery of the review among them', async () => {
      const listed = async (browser: typeof arena.attacker) =>
        (
          (await browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 50 } })) as {
            list: {
              fileId: string;
              downloadUrl: string | null;
              fileUrl: string | null;
              thumbnailUrl: string | null;
              resKey: string | null;
            }[];
          }
        ).list;
      const mine = (await listed(arena.attacker)).find((a) => a.fileId === arena.mine.imageFileId);
      const theirs = (await listed(arena.victim)).find((a) => a.fileId === arena.theirs.imageFileId);
      if (!mine?.downloadUrl || !mine.fileUrl || !theirs?.downloadUrl) throw new Error('the holdings have no file links');
      // The review's forgery: a download name that carries the victim's key and a far expiry.
      await arena.attacker.ok('POST', '/assert/rename', {
        body: { fileId: mine.fileId, fileName: `x&expires=99999999999999&key=${arena.theirs.imageResKey}&kez=` },
      });
      const renamed = (await listed(arena.attacker)).find((a) => a.fileId === mine.fileId)?.downloadUrl as string;
      await arena.campaign.expectNoChange(CATEGORY, 'GET /file/object', async () => {
        // Each kind the library hands out: the download (with a name), the file itself and its thumbnail.
        for (const url of [mine.downloadUrl, mine.fileUrl, mine.thumbnailUrl].filter((u): u is string => Boolean(u))) {
          const own = parse(url);
          for (const { what, query } of tamperings(own.query, parse(theirs.downloadUrl as string).query)) {
            await attack(`/file/object (${what})`, 'GET', own.path, query, 403);
          }
        }
        const signed = parse(renamed).query;
        const tail = `.png&expires=${signed.expires}&key=${mine.resKey}`;
        await attack(
          '/file/object (a file name that re-points the link)',
          'GET',
          parse(renamed).path,
          {
            download: 'x',
            expires: '99999999999999',
            key: arena.theirs.imageResKey,
            kez: tail,
            signature: String(signed.signature),
          },
          403,
        );
      });
    });

    it('refuses every tampered upload link (PUT /file/upload) and stores nothing', async () => {
      const own = parse((await putUrl(arena.attacker, 'png')).uploadUrl);
      const other = parse((await putUrl(arena.attacker, 'png')).uploadUrl);
      await arena.campaign.expectNoChange(CATEGORY, 'PUT /file/upload', async () => {
        for (const { what, query } of tamperings(own.query, other.query)) {
          await attack(`/file/upload (${what})`, 'PUT', own.path, query, 403);
        }
        // A download link is no upload link.
        const links = (await arena.attacker.ok('POST', '/file/url/transfer', { body: { data: [arena.mine.imageResKey] } })) as Record<
          string,
          string
        >;
        await attack('/file/upload (a download link)', 'PUT', own.path, parse(links[arena.mine.imageResKey] as string).query, 403);
      });
    });

    it('refuses every tampered draft link (GET /project/draftFile)', async () => {
      const draftOf = async (browser: typeof arena.attacker, projectId: string) =>
        parse((await browser.ok('POST', '/project/getDraftFileUrl', { body: { projectId } })) as string);
      const own = await draftOf(arena.attacker, arena.mine.projectId);
      const other = await draftOf(arena.victim, arena.theirs.projectId);
      expect(own.path).toBe(`${base()}/project/draftFile`);
      await arena.campaign.expectNoChange(CATEGORY, 'GET /project/draftFile', async () => {
        for (const { what, query } of tamperings(own.query, other.query)) {
          await attack(`/project/draftFile (${what})`, 'GET', own.path, query, 404);
        }
      });
    });
  });
}
