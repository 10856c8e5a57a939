import {
  assetDelete,
  assetList,
  assetRename,
  assetStatistics,
  assetUrls,
  assetUrlTaskQuery,
  assetUrlTaskSubmit,
} from '@reelsmith/contract';
import type { FastifyRequest } from 'fastify';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { toLibraryAsset } from '../files/records.js';
import { deleteAssets, listAssets, renameAsset, assetStatistics as statisticsOf, storedAssets } from './service.js';
import { readUrlImport, submitUrlImport } from './urlImport.js';

const localeOfRequest = (req: FastifyRequest) => localeOf(req.headers['accept-language']);

export const assetsModule = defineModule((_api, { route, ctx }) => {
  const { db, storage } = ctx;

  route(assetList, async ({ user, body, req }) => {
    const { rows, total } = await listAssets(db, user.userId, body);
    const locale = localeOfRequest(req);
    return { list: await Promise.all(rows.map((row) => toLibraryAsset(storage, row, locale))), total };
  });
  route(assetRename, async ({ user, body }) => {
    await renameAsset(db, user.userId, body.fileId, body.fileName);
    return true as const;
  });
  route(assetDelete, async ({ user, body }) => {
    await deleteAssets(ctx, user.userId, body.fileIds);
    return true as const;
  });
  // Ids that are not the caller's stored files are left out of the answer.
  route(assetUrls, async ({ user, body }) => {
    const rows = await storedAssets(db, user.userId, body.fileIds);
    return Object.fromEntries(
      await Promise.all(rows.map(async (row) => [row.id, await storage.downloadUrl(row.resKey as string)] as const)),
    );
  });
  route(assetStatistics, ({ user }) => statisticsOf(db, user.userId, ctx.settings.storageQuotaBytes));
  route(assetUrlTaskSubmit, async ({ user, body }) => ({ fileId: await submitUrlImport(ctx, user, body.url) }));
  route(assetUrlTaskQuery, ({ user, query, req }) => readUrlImport(ctx, user.userId, query.fileId, localeOfRequest(req)));
});
