import { z } from 'zod';
import { defineCall } from './call.js';
import { HttpUrl, Id, Ids, Ok, Page, ResKey, Timestamp } from './common.js';
import { AssetOrigin, AssetStatus, AssetType, SortOrder } from './enums.js';

/** A file as the link-to-video editor uses it (spec "Entities" asset item). */
export const AssetItem = z.object({
  fileId: z.string(),
  fileName: z.string(),
  fileUrl: z.string(),
  resKey: z.string(),
  format: z.string(),
});
export type AssetItem = z.infer<typeof AssetItem>;

/**
 * An entry of the assets library (spec "Entities" library asset). A URL import is listed from the moment it is submitted:
 * while it is a draft, and when it failed, it has no stored file yet, so its URLs, key, format and even its type
 * are null (`errorMsg` says why it failed). URLs are signed and expire (FILE_URL_TTL_MINUTES).
 */
export const LibraryAsset = z.object({
  fileId: z.string(),
  fileName: z.string(),
  /** The file itself, to show or play. */
  fileUrl: z.string().nullable(),
  /** The same file sent as an attachment named after fileName, for the download action. */
  downloadUrl: z.string().nullable(),
  /** A WebP at most 480 px a side: the image scaled down, or a video's poster frame. */
  thumbnailUrl: z.string().nullable(),
  resKey: z.string().nullable(),
  /** jpg, png, webp, mp4, mov or webm: what the content is, whatever the name said. */
  format: z.string().nullable(),
  type: AssetType.nullable(),
  source: AssetOrigin,
  status: AssetStatus,
  projectId: z.string().nullable(),
  /** The address a URL import came from. */
  sourceUrl: z.string().nullable(),
  errorMsg: z.string().nullable(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Seconds, videos only. */
  duration: z.number().nullable(),
  createTime: Timestamp,
  /**
   * Present (true) only when the sandbox's free stand-in made the file, not a real AI model: a placeholder marked
   * SANDBOX, to be labelled so wherever it is shown.
   */
  standIn: z.literal(true).optional(),
});
export type LibraryAsset = z.infer<typeof LibraryAsset>;

export const assetList = defineCall({
  method: 'POST',
  path: '/assert/folders/files',
  access: 'active',
  body: Page.extend({
    type: AssetType.optional(),
    source: AssetOrigin.optional(),
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
    /** Every byte the user stores, as the storage quota counts it: files, thumbnails, pending uploads, captured pages. */
    bytes: z.number().int(),
    /** The storage quota (STORAGE_QUOTA_MB). */
    quotaBytes: z.number().int(),
  }),
});

export const assetUrlTaskSubmit = defineCall({
  method: 'POST',
  path: '/assert/url-task',
  access: 'active',
  body: z.strictObject({ url: HttpUrl }),
  data: z.object({ fileId: z.string() }),
});

/** status: -1 failure, 4 success, any other value submitted (spec "States and transitions"). */
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
  query: z.strictObject({
    format: z.string().regex(/^[a-z0-9]{2,5}$/i),
    /**
     * The file's size in bytes: the room reserved for it in the user's storage quota, and the only length the
     * upload URL takes. Optional with local storage (the type's largest size is reserved), required with S3.
     */
    size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  data: z.object({ uploadUrl: z.string(), resKey: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
});
