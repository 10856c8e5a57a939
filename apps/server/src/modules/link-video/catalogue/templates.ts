// The template picker's thumbnails (decision "Template picker"): one frame of each template's hook, drawn by the
// real renderer. Without a picture they show a sample product and are public samples like the caption previews;
// with one of the user's pictures they show that product in the user's brand kit, through a link signed for that
// user and file, made once and kept in the cache by file, template, shape, language, the words on the hook and the
// kit.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AdAspectRatio, Locale, linkVideoTemplates, TEMPLATE_IDS, TemplateId } from '@reelsmith/contract';
import { detectLanguage, templateThumbnail } from '@reelsmith/media';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../errors.js';
import { localeOf } from '../../../http/locale.js';
import type { Router } from '../../../http/route.js';
import type { UrlSigner } from '../../../http/signedUrl.js';
import { apiBase } from '../../../settings.js';
import { readBrandKit } from '../../brand-kit/service.js';
import { cacheDirOf, mediaToolsOf, templatePicturesDir, templateThumbnailsDir } from '../../files/workDir.js';
import { brandOf } from '../video/look.js';
import { localCopy, mediaFiles } from '../video/media.js';
import { cachedFile, oneAtATime } from './cachedFile.js';

const THUMBNAIL_PATH = '/link-video/templates/thumbnail';
/** The picker asks again when it opens; an hour covers a page left open a while. */
const THUMBNAIL_LINK_TTL_MS = 60 * 60_000;
/**
 * A picture's thumbnails kept at most (finding F4): its six templates in two shapes and a few wordings of the hook.
 * Each new wording draws six more; past this many the least recently used go, so typing names never fills a disk.
 */
export const THUMBNAILS_PER_PICTURE = 48;
/**
 * Thumbnails of a user's pictures served a minute at most, per user (finding F4): a picker shows six, so this is
 * twenty pickers a minute; past it a flood of new wordings would hold the one renderer every user's picker waits on.
 */
export const THUMBNAILS_PER_MINUTE = 120;

/** Keeps the `keep` most recently used of the picture's thumbnails and removes the rest. */
export async function pruneThumbnails(dir: string, fileId: string, keep: number) {
  const names = (await readdir(dir).catch(() => [] as string[])).filter(
    (name) => name.startsWith(`${fileId}-`) && name.endsWith('.jpg') && !name.includes('.part'),
  );
  if (names.length <= keep) return;
  const used = await Promise.all(
    names.map(async (name) => {
      const s = await stat(join(dir, name)).catch(() => undefined);
      return { name, at: s ? Math.max(s.atimeMs, s.mtimeMs) : 0 };
    }),
  );
  const doomed = used.sort((a, b) => b.at - a.at).slice(keep);
  await Promise.all(doomed.map(({ name }) => rm(join(dir, name), { force: true })));
}

/** What a sample thumbnail is drawn for, beside its template: the query of its public address. */
export const SampleLook = z.strictObject({ aspectRatio: AdAspectRatio, language: Locale });
export type SampleLook = z.infer<typeof SampleLook>;

/**
 * Declares the templates call and the thumbnails of the user's pictures; answers how to draw a sample thumbnail,
 * which the catalogue serves beside its other samples.
 */
export function templateRoutes(
  api: FastifyInstance,
  {
    route,
    ctx,
    signer,
    sampleUrl,
  }: { route: Router; ctx: AppContext; signer: UrlSigner; sampleUrl: (templateId: TemplateId, look: SampleLook) => string },
): (templateId: TemplateId, look: SampleLook, out: string) => Promise<void> {
  const tools = mediaToolsOf(ctx.settings);
  const cacheDir = cacheDirOf(ctx.settings.dataDir, 'templates');
  const render = oneAtATime();
  const links = signer.link(`${apiBase(ctx.settings)}${THUMBNAIL_PATH}`, {
    fields: ['userId', 'fileId', 'templateId', 'aspectRatio', 'language'],
    optional: ['name', 'price', 'currency', 'listPrice', 'kit'],
    ttlMs: THUMBNAIL_LINK_TTL_MS,
  });

  /** The user's stored picture, or not found: someone else's file, a video, a failed import and nothing look alike. */
  async function ownPicture(userId: string, fileId: string) {
    const [file] = await mediaFiles(ctx, userId, [fileId]);
    if (file?.type !== 'image') throw new AppError('notFound');
    return file;
  }

  /** What of the user's brand kit a thumbnail shows (colours, typeface, logo), as a short key. */
  async function kitKey(userId: string): Promise<string> {
    const kit = await readBrandKit(ctx, userId, 'en');
    const shown = [kit.isDefault, kit.primaryColor, kit.secondaryColor, kit.fontId, kit.logoResKey ?? null];
    return createHash('sha256').update(JSON.stringify(shown)).digest('hex').slice(0, 12);
  }

  route(linkVideoTemplates, async ({ user, query, req }) => {
    const aspectRatio = query.aspectRatio ?? '9:16';
    if (!query.fileId) {
      const language = query.language ?? localeOf(req.headers['accept-language']);
      return TEMPLATE_IDS.map((templateId) => ({ templateId, previewUrl: sampleUrl(templateId, { aspectRatio, language }) }));
    }
    const file = await ownPicture(user.userId, query.fileId);
    const { name, price, currency, listPrice } = query;
    // The hook is in the ad's language: a Chinese name needs the Chinese type, whatever the page's language.
    const language = query.language ?? (name ? detectLanguage(name) : localeOf(req.headers['accept-language']));
    // The kit's identity in the link: a saved kit gives new links, so a browser does not keep the old pictures.
    const kit = await kitKey(user.userId);
    return TEMPLATE_IDS.map((templateId) => ({
      templateId,
      previewUrl: links.sign({
        userId: user.userId,
        fileId: file.id,
        templateId,
        aspectRatio,
        language,
        name,
        price,
        currency,
        listPrice,
        kit,
      }),
    }));
  });

  /** What a verified link names, read back into the renderer's terms (the signature vouches for the values). */
  const Thumbnail = z.object({
    userId: z.string(),
    fileId: z.string(),
    templateId: TemplateId,
    aspectRatio: AdAspectRatio,
    language: Locale,
    name: z.string().optional(),
    price: z.string().optional(),
    currency: z.string().optional(),
    listPrice: z.string().optional(),
    kit: z.string().optional(),
    expires: z.number(),
  });

  const rateLimit = {
    max: THUMBNAILS_PER_MINUTE,
    timeWindow: 60_000,
    // Counted for the user a link was signed for; a link that does not verify is counted for its address, so nobody
    // spends another user's minute by naming them.
    keyGenerator: (req: FastifyRequest) => {
      const signed = links.verify(req.query);
      return signed ? `thumbnail:${signed.userId}` : `thumbnail@${req.ip}`;
    },
  };
  api.get(THUMBNAIL_PATH, { config: { skipClientChecks: true, rateLimit } }, async (req, reply) => {
    const link = Thumbnail.safeParse(links.verify(req.query));
    if (!link.success) throw new AppError('uploadLinkInvalid');
    const { userId, fileId, templateId, aspectRatio, language, name, price, currency, listPrice } = link.data;
    // The file may have been deleted since the link was signed.
    const file = await ownPicture(userId, fileId);
    // The kit as it is now (the link's key only tells browsers apart): its colours, typeface and logo.
    const { brand } = await brandOf(ctx, userId, language, (resKey) => localCopy(ctx, resKey, null));
    const words = JSON.stringify([language, name ?? null, price ?? null, currency ?? null, listPrice ?? null, await kitKey(userId)]);
    const wordsKey = createHash('sha256').update(words).digest('hex').slice(0, 16);
    const thumbnails = templateThumbnailsDir(ctx.settings.dataDir);
    const out = join(thumbnails, `${file.id}-${templateId}-${aspectRatio.replace(':', 'x')}-${wordsKey}.jpg`);
    const thumbnail = await cachedFile(out, async (partial) => {
      // A stored file never changes: its local copy serves every template, shape and name.
      const picture = await cachedFile(
        join(templatePicturesDir(ctx.settings.dataDir), `${file.id}.${file.format ?? 'img'}`),
        async (copy) => pipeline(await ctx.storage.read(file.resKey), createWriteStream(copy)),
      );
      const offer = price && currency ? { price, currency, ...(listPrice && { listPrice }) } : undefined;
      await render(() =>
        templateThumbnail({ file: picture, templateId, aspectRatio, language, name, offer, brand, out: partial, cacheDir, tools }),
      );
      await pruneThumbnails(thumbnails, file.id, THUMBNAILS_PER_PICTURE - 1);
    });
    return reply
      .type('image/jpeg')
      .header('cache-control', `private, max-age=${Math.max(0, Math.floor((link.data.expires - Date.now()) / 1000))}`)
      .send(createReadStream(thumbnail));
  });

  return (templateId, look, out) =>
    render(() => templateThumbnail({ templateId, aspectRatio: look.aspectRatio, language: look.language, out, cacheDir, tools }));
}
