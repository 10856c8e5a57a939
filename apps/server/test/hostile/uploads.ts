// 7. Uploads whose name lies about their content: a page, a script, a program or an archive named as a picture or
// a video, and pictures and videos whose header is followed by garbage. Uploaded through the put-url flow and
// registered, or imported from a link into a project; each is refused by its content, and nothing is stored: no
// asset row, no object, no work file, the upload object gone.
import { ERRORS } from '@reelsmith/contract';
import { describe, it } from 'vitest';
import { putTo, putUrl } from '../support/files.js';
import type { Arena } from './support/arena.js';
import { API_CALLS } from './support/calls.js';

const CATEGORY = 'lying uploads';

const zeros = (n: number) => Buffer.alloc(n);
const garbage = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919) % 251));

/** Bytes that are not what their name says, and the name they are uploaded under. */
const LIARS: { what: string; bytes: Buffer; names: string[] }[] = [
  {
    what: 'an HTML page',
    bytes: Buffer.from('<!doctype html><html><body><script>fetch("/steal?c=" + document.cookie)</script></body></html>'),
    names: ['photo.png', 'clip.mp4'],
  },
  {
    what: 'an SVG with a script',
    bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>'),
    names: ['logo.png', 'logo.jpg', 'logo.webp'],
  },
  { what: 'a text file', bytes: Buffer.from('just some notes\nnothing to see\n'), names: ['notes.jpg'] },
  {
    what: 'an ELF program',
    bytes: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), zeros(56), garbage(256)]),
    names: ['picture.png', 'movie.mov'],
  },
  {
    what: 'a Windows program',
    bytes: Buffer.concat([
      Buffer.from('MZ'),
      zeros(58),
      Buffer.from([0x80, 0, 0, 0]),
      Buffer.from('This program cannot be run in DOS mode.'),
    ]),
    names: ['picture.jpg', 'movie.mp4'],
  },
  {
    what: 'a zip archive',
    bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 0, 0]), zeros(16), Buffer.from('evil.sh'), garbage(64)]),
    names: ['photo.png', 'photo.jpg', 'clip.mp4'],
  },
  {
    what: 'a PNG header and garbage',
    bytes: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), garbage(2048)]),
    names: ['broken.png'],
  },
  {
    what: 'a JPEG header and garbage',
    bytes: Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), garbage(2048)]),
    names: ['broken.jpg'],
  },
  {
    what: 'an MP4 header and garbage',
    bytes: Buffer.concat([Buffer.from('0000001866747970', 'hex'), Buffer.from('isom'), zeros(12), garbage(2048)]),
    names: ['broken.mp4'],
  },
  { what: 'a GIF', bytes: Buffer.concat([Buffer.from('GIF89a'), garbage(64)]), names: ['animated.png'] },
  { what: 'nothing', bytes: Buffer.alloc(0), names: ['empty.png'] },
];

/** Refusals by content: not a format the library takes, unreadable, or empty. */
const BY_CONTENT = [ERRORS.fileFormatUnsupported.code, ERRORS.fileUnreadable.code, ERRORS.fileEmpty.code];

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);

export function lyingUploadAttacks(arena: Arena) {
  const register = API_CALLS.find((api) => api.name === 'assetUploadWithUrl');
  const importIntoProject = API_CALLS.find((api) => api.name === 'linkVideoFileUpload');
  if (!register || !importIntoProject) throw new Error('the upload calls are not in the contract');

  describe(CATEGORY, () => {
    for (const liar of LIARS) {
      it(`refuses ${liar.what} uploaded as ${liar.names.join(', ')}`, async () => {
        const { campaign, attacker, t } = arena;
        for (const name of liar.names) {
          await campaign.expectNoChange(CATEGORY, `${liar.what} as ${name}`, async () => {
            const target = await putUrl(attacker, extensionOf(name));
            const put = await putTo(t, target, liar.bytes);
            // The file server refuses what it can tell from the request alone (nothing sent), with a real status.
            if (put.statusCode !== 200) {
              const refused = { status: put.statusCode, body: put.json(), headers: put.headers };
              campaign.figures.of(CATEGORY).requests++;
              campaign.expectRefused(CATEGORY, refused, `${liar.what} put as ${name}`, { codes: BY_CONTENT, status: 400 });
            }
            const answer = await campaign.send(CATEGORY, attacker, register, { body: { resKey: target.resKey, fileName: name } });
            const registered = put.statusCode === 200 ? BY_CONTENT : [ERRORS.notFound.code];
            campaign.expectRefused(CATEGORY, answer, `${liar.what} as ${name}`, { codes: registered });
          });
        }
      });

      it(`refuses ${liar.what} imported from a link as ${liar.names.join(', ')}`, async () => {
        const { campaign, attacker, mine, site } = arena;
        for (const name of liar.names) {
          const path = `/lying/${encodeURIComponent(liar.what)}/${name}`;
          site.routes.set(path, { type: extensionOf(name) === 'mp4' ? 'video/mp4' : 'image/png', body: liar.bytes });
          await campaign.expectNoChange(CATEGORY, `${liar.what} imported as ${name}`, async () => {
            const body = { projectId: mine.projectId, urls: [`${site.base}${path}`] };
            const answer = await campaign.send(CATEGORY, attacker, importIntoProject, { body });
            campaign.expectRefused(CATEGORY, answer, `${liar.what} imported as ${name}`, { codes: BY_CONTENT });
          });
        }
      });
    }
  });
}
