/**
 * Storage keys. Every key of a user's file starts with `u/<userId>/`, so a key the client sends can be checked
 * against the signed-in user without a database lookup: a user can only ever name their own keys. Uploads land
 * under `u/<userId>/upload/` until they are checked and registered as files.
 */
import { randomUUID } from 'node:crypto';

/** Segments of letters, digits, dot, dash and underscore that start with a letter or digit: no `..`, no absolute paths. */
const SAFE_KEY = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)*$/;
const MAX_KEY_LENGTH = 512;

export const isSafeKey = (key: string) => key.length <= MAX_KEY_LENGTH && SAFE_KEY.test(key);

/** The key itself; throws for one that could leave its folder. Keys come from our own code, but drivers check anyway. */
export function safeKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
  return key;
}

const userPrefix = (userId: string) => `u/${userId}/`;
const uploadPrefix = (userId: string) => `u/${userId}/upload/`;

export const isUsersKey = (userId: string, key: string) => isSafeKey(key) && key.startsWith(userPrefix(userId));
export const isUsersUploadKey = (userId: string, key: string) => isSafeKey(key) && key.startsWith(uploadPrefix(userId));

/** Where a stored file lives: named after its file id, so a retried import writes the same key again. */
export const fileKey = (userId: string, fileId: string, ext: string) => `${userPrefix(userId)}${fileId}.${ext}`;
export const thumbKey = (userId: string, fileId: string) => `${userPrefix(userId)}${fileId}.thumb.webp`;
export const uploadKey = (userId: string, ext: string) => `${uploadPrefix(userId)}${randomUUID()}.${ext}`;
/** A product page the browser extension captured: not a file of the library, only what link analysis reads. */
export const capturedPageKey = (userId: string) => `${userPrefix(userId)}pages/${randomUUID()}.html`;

/** The extension of a key, lower case ('' without one). */
export function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}
