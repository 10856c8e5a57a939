/**
 * The `link-analysis` task (`/task/v1/link-analysis`): reads the product page (fetched, or the copy the browser
 * extension captured), extracts the product, imports its pictures and videos as files of the project, and answers
 * the product for the editor. Free: it generates nothing, and every link-to-video project starts with it.
 */
import { TASKS } from '@reelsmith/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { type FileRow, files, projects } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import { getProject, nameAfterProduct } from '../../projects/service.js';
import type { TaskDefinition } from '../../tasks/definition.js';
import { learnAhead } from '../video/learnAhead.js';
import { extractProduct, hasProduct } from './extract.js';
import { importProductMedia } from './importMedia.js';
import { checkCaptureKey, loadPage } from './pageSource.js';

type Input = z.infer<(typeof TASKS)['link-analysis']['input']>;
type Result = z.infer<(typeof TASKS)['link-analysis']['result']>;
type Media = Result['productImages'][number];

export const linkAnalysisTask: TaskDefinition<Input, Result> = {
  kind: 'link-analysis',
  input: TASKS['link-analysis'].input,
  timeoutMs: 5 * 60_000,

  async accept(ctx, user, input) {
    await getProject(ctx.db, user.userId, input.projectId);
    if (input.resKey) checkCaptureKey(user.userId, input.resKey);
  },

  async run({ taskId, userId, input, signal, progress, ctx, log }) {
    await progress('parsing');
    const page = await loadPage(ctx, { userId, productLink: input.productLink, resKey: input.resKey });
    signal.throwIfAborted();
    const product = extractProduct(page.body, page.url, page.contentType);
    if (!hasProduct(product)) throw new AppError('noProductFound');

    await progress('understanding');
    const media = { taskId, userId, projectId: input.projectId, videos: product.videos, images: product.images, signal };
    const imported = await importProductMedia(ctx, media);
    if (!product.name && imported.images.length + imported.videos.length === 0) throw new AppError('noProductFound');
    await rememberProductLink(ctx, userId, input.projectId, input.productLink);
    // An untitled project takes the product's name (decision "Projects named after the product").
    await nameAfterProduct(ctx.db, userId, input.projectId, product.name);
    // While the user reads the product page, the pictures' subjects are found for the first preview (decision "The
    // ad engine"); the analysis does not wait for them, and a picture that cannot be learnt is only logged.
    void learnAhead(ctx, log, imported.images);
    return {
      productName: product.name,
      productDescription: product.description,
      productImages: await Promise.all(imported.images.map((row) => mediaOf(ctx, row))),
      productVideos: await Promise.all(imported.videos.map((row) => mediaOf(ctx, row))),
      ...(product.offer && { productOffer: product.offer }),
      ...(product.brand && { productBrand: product.brand }),
      ...(product.rating && { productRating: product.rating }),
      ...(product.facts && { productFacts: product.facts }),
      mediaImport: imported.report,
    };
  },

  // File links expire; a project's analysis is read again for as long as the project lives.
  async view(result, ctx) {
    const ids = [...result.productImages, ...result.productVideos].flatMap((m) => m.fileId ?? []);
    const rows = ids.length ? await ctx.db.select().from(files).where(inArray(files.id, ids)) : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A file the user has deleted since is left out: only items with a file are kept.
    const fresh = (items: Media[]) => {
      const rows = items.flatMap((m) => (m.fileId && byId.get(m.fileId)?.resKey ? [byId.get(m.fileId) as FileRow] : []));
      return Promise.all(rows.map((row) => mediaOf(ctx, row)));
    };
    return { ...result, productImages: await fresh(result.productImages), productVideos: await fresh(result.productVideos) };
  },
};

async function mediaOf(ctx: AppContext, row: FileRow): Promise<Media> {
  return { fileId: row.id, fileUrl: await ctx.storage.downloadUrl(row.resKey as string) };
}

/** The project remembers the link it was analysed from (its list shows it). */
async function rememberProductLink(ctx: AppContext, userId: string, projectId: string, productLink: string) {
  await ctx.db
    .update(projects)
    .set({ productLink, updatedAt: new Date() })
    .where(and(eq(projects.id, projectId), eq(projects.userId, userId)));
}
