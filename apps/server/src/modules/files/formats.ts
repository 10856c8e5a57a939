/**
 * The formats the library accepts (decision "Accepted file formats"): what browsers show and ffmpeg reads everywhere.
 * A file's format is what its bytes say (file-type's extension), never its name.
 */
import type { AssetType as AssetTypes } from '@reelsmith/contract';
import type { z } from 'zod';
import type { Settings } from '../../settings.js';
import { extensionOf } from './storage/keys.js';

export type AssetType = z.infer<typeof AssetTypes>;

export interface Format {
  ext: string;
  type: AssetType;
  mime: string;
}

const FORMATS: Record<string, Format> = {
  jpg: { ext: 'jpg', type: 'image', mime: 'image/jpeg' },
  png: { ext: 'png', type: 'image', mime: 'image/png' },
  webp: { ext: 'webp', type: 'image', mime: 'image/webp' },
  mp4: { ext: 'mp4', type: 'video', mime: 'video/mp4' },
  mov: { ext: 'mov', type: 'video', mime: 'video/quicktime' },
  webm: { ext: 'webm', type: 'video', mime: 'video/webm' },
};

/** The extensions stored files can have. */
export const FORMAT_EXTENSIONS = Object.keys(FORMATS);

/** For messages: "JPG, PNG, WEBP, MP4, MOV, WEBM". */
export const FORMAT_NAMES = FORMAT_EXTENSIONS.map((ext) => ext.toUpperCase()).join(', ');

/** The accepted format of an extension (jpeg counts as jpg), or undefined. */
export const formatOf = (ext: string): Format | undefined => FORMATS[ext.toLowerCase() === 'jpeg' ? 'jpg' : ext.toLowerCase()];

/** The Content-Type a stored object is served with, by its key; thumbnails are WebP. */
export const mimeOfKey = (key: string) => formatOf(extensionOf(key))?.mime ?? 'application/octet-stream';

/** The largest file of a type, in bytes. */
export const maxBytesOf = (settings: Settings, type: AssetType) => (type === 'image' ? settings.maxImageBytes : settings.maxVideoBytes);

/** The largest file of any type: the cap while the type is not known yet. */
export const maxBytesOfAny = (settings: Settings) => Math.max(settings.maxImageBytes, settings.maxVideoBytes);

export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Pixels a side, images and videos; outside this a file is an icon or something no ad can use. */
export const SIDE_LIMITS: Record<AssetType, { min: number; max: number }> = {
  image: { min: 32, max: 10_000 },
  video: { min: 32, max: 4096 },
};
