import { assetUploadWithUrl, filePutUrl, fileUrlTransfer, linkVideoFileUpload } from '@reelsmith/contract';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { getProject } from '../projects/service.js';
import { FORMAT_NAMES, formatOf, maxBytesOf, megabytes } from './formats.js';
import { registerObjectRoutes } from './objectRoutes.js';
import { importIntoProject } from './projectImport.js';
import { toAssetItem, toLibraryAsset } from './records.js';
import { isUsersKey, uploadKey } from './storage/keys.js';
import { LocalStorage } from './storage/local.js';
import { driverOf } from './storage/metered.js';
import { hold, restore } from './storedObjects.js';
import { registerUpload } from './upload.js';
import { registerUploadRoute } from './uploadRoute.js';

export const filesModule = defineModule((api, { route, ctx }) => {
  const { db, storage } = ctx;

  // The upload's room in the quota is reserved before its URL exists (docs/decisions, "Storage quota"): the size
  // declared, which a bucket then holds the upload to, or, where the app's own file server bounds the body, the
  // type's largest size. A bucket cannot bound an upload of undeclared size, so S3 needs the size.
  route(filePutUrl, async ({ user, query }) => {
    const format = formatOf(query.format);
    if (!format) throw new AppError('fileFormatUnsupported', { types: FORMAT_NAMES });
    const maxBytes = maxBytesOf(ctx.settings, format.type);
    if (query.size !== undefined && query.size > maxBytes) throw new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) });
    if (query.size === undefined && storage.driver === 's3') throw new AppError('uploadSizeRequired');
    const resKey = uploadKey(user.userId, format.ext);
    const previous = await hold(db, ctx.settings.storageQuotaBytes, resKey, query.size ?? maxBytes, { pending: true });
    try {
      const target = await storage.uploadUrl(resKey, format.mime, query.size);
      return { uploadUrl: target.url, resKey, method: target.method, headers: target.headers };
    } catch (error) {
      await restore(db, resKey, previous);
      throw error;
    }
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

  const driver = driverOf(storage);
  if (driver instanceof LocalStorage) {
    registerObjectRoutes(api, ctx, driver);
    registerUploadRoute(api, ctx, driver.links);
  }
});
