import { assetUploadWithUrl, filePutUrl, fileUrlTransfer, linkVideoFileUpload } from '@reelsmith/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import type { Router } from '../../http/route.js';
import { getProject } from '../projects/service.js';
import { FORMAT_NAMES, formatOf } from './formats.js';
import { registerObjectRoutes } from './objectRoutes.js';
import { importIntoProject } from './projectImport.js';
import { toAssetItem, toLibraryAsset } from './records.js';
import { isUsersKey, uploadKey } from './storage/keys.js';
import { LocalStorage } from './storage/local.js';
import { registerUpload } from './upload.js';

export function registerFileRoutes(api: FastifyInstance, route: Router, ctx: AppContext) {
  const { db, storage } = ctx;

  route(filePutUrl, async ({ user, query }) => {
    const format = formatOf(query.format);
    if (!format) throw new AppError('fileFormatUnsupported', { types: FORMAT_NAMES });
    const resKey = uploadKey(user.userId, format.ext);
    const target = await storage.uploadUrl(resKey, format.mime);
    return { uploadUrl: target.url, resKey, method: target.method, headers: target.headers };
  });

  route(assetUploadWithUrl, async ({ user, body, req }) => {
    const row = await registerUpload(ctx, user.userId, body);
    return toLibraryAsset(storage, row, localeOf(req.headers['accept-language']));
  });

  // Keys that are not the caller's are left out of the answer, as keys of nothing would be.
  route(fileUrlTransfer, async ({ user, body }) => {
    const own = [...new Set(body.data)].filter((key) => isUsersKey(user.userId, key));
    return Object.fromEntries(await Promise.all(own.map(async (key) => [key, await storage.downloadUrl(key)] as const)));
  });

  route(linkVideoFileUpload, async ({ user, body, req }) => {
    await getProject(db, user.userId, body.projectId);
    const rows = await importIntoProject(ctx, user.userId, body.projectId, body.urls, req.log);
    return Promise.all(rows.map((row) => toAssetItem(storage, row)));
  });

  if (storage instanceof LocalStorage) registerObjectRoutes(api, ctx, storage);
}
