import { z } from 'zod';
import { defineCall } from './call.js';
import { HttpUrl, Id, Ids, Ok, Page, ResKey, Timestamp } from './common.js';
import { AssetSource, AssetStatus, AssetType, SortOrder } from './enums.js';

/** A file as the link-to-video editor uses it (spec §3 asset item). */
export const AssetItem = z.object({
  fileId: z.string(),
  fileName: z.string(),
  fileUrl: z.string(),
  resKey: z.string(),
  format: z.string(),
});
export type AssetItem = z.infer<typeof AssetItem>;

/** An entry of the assets library (spec §3 library asset/project). */
export const LibraryAsset = AssetItem.extend({
  type: AssetType,
  source: AssetSource,
  status: AssetStatus,
  thumbnailUrl: z.string().nullable(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  createTime: Timestamp,
});
export type LibraryAsset = z.infer<typeof LibraryAsset>;

export const assetList = defineCall({
  method: 'POST',
  path: '/assert/folders/files',
  access: 'active',
  body: Page.extend({
    type: AssetType.optional(),
    source: AssetSource.optional(),
    status: AssetStatus.optional(),
    sort: SortOrder.default('newest'),
  }),
  data: z.object({ list: z.array(LibraryAsset), total: z.number().int() }),
});

export const assetRename = defineCall({
  method: 'POST',
  path: '/assert/rename',
  access: 'active',
  body: z.strictObject({ fileId: Id, fileName: z.string().trim().min(1).max(255) }),
  data: Ok,
});

export const assetDelete = defineCall({
  method: 'POST',
  path: '/assert/delete',
  access: 'active',
  body: z.strictObject({ fileIds: Ids }),
  data: Ok,
});

/** Registers a file uploaded to a put-url as an asset. */
export const assetUploadWithUrl = defineCall({
  method: 'POST',
  path: '/assert/uploadFileWithUrl',
  access: 'active',
  body: z.strictObject({ resKey: ResKey, fileName: z.string().trim().min(1).max(255), projectId: Id.optional() }),
  data: LibraryAsset,
});

export const assetUrls = defineCall({
  method: 'POST',
  path: '/assert/urls',
  access: 'active',
  body: z.strictObject({ fileIds: Ids }),
  data: z.record(z.string(), z.string()),
});

export const assetStatistics = defineCall({
  method: 'GET',
  path: '/assert/statistics',
  access: 'active',
  data: z.object({
    total: z.number().int(),
    images: z.number().int(),
    videos: z.number().int(),
    projects: z.number().int(),
    bytes: z.number().int(),
  }),
});

export const assetUrlTaskSubmit = defineCall({
  method: 'POST',
  path: '/assert/url-task',
  access: 'active',
  body: z.strictObject({ url: HttpUrl }),
  data: z.object({ fileId: z.string() }),
});

/** status: -1 failure, 4 success, any other value submitted (spec §4). */
export const assetUrlTaskQuery = defineCall({
  method: 'GET',
  path: '/assert/url-task',
  access: 'active',
  query: z.strictObject({ fileId: Id }),
  data: z.object({
    status: z.number().int(),
    fileKey: z.string().nullable(),
    fileUrl: z.string().nullable(),
    errorMsg: z.string().nullable(),
  }),
});

export const fileUrlTransfer = defineCall({
  method: 'POST',
  path: '/file/url/transfer',
  access: 'active',
  body: z.strictObject({ data: z.array(ResKey).max(200) }),
  data: z.record(z.string(), z.string()),
});

export const linkVideoFileUpload = defineCall({
  method: 'POST',
  path: '/link-video/file/upload',
  access: 'active',
  body: z.strictObject({ projectId: Id, urls: z.array(HttpUrl).min(1).max(30) }),
  data: z.array(AssetItem),
});

export const filePutUrl = defineCall({
  method: 'GET',
  path: '/file/user/put-url',
  access: 'active',
  query: z.strictObject({ format: z.string().regex(/^[a-z0-9]{2,5}$/i) }),
  data: z.object({ uploadUrl: z.string(), resKey: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
});
