import { z } from 'zod';
import { defineCall } from './call.js';
import { ResKey } from './common.js';
import { Locale } from './enums.js';

/** A voice of the quick editor (spec "Screens and routes" screen 3: recommended or other, filtered male/female/all). */
export const Voice = z.object({
  voiceId: z.string(),
  name: z.string(),
  gender: z.enum(['male', 'female']),
  language: Locale,
  recommended: z.boolean(),
  /** A short spoken sample; null while none has been made. */
  sampleUrl: z.string().nullable(),
});
export type Voice = z.infer<typeof Voice>;

export const MusicTrack = z.object({
  musicId: z.string(),
  name: z.string(),
  mood: z.string(),
  recommended: z.boolean(),
  sampleUrl: z.string().nullable(),
});
export type MusicTrack = z.infer<typeof MusicTrack>;

/** A subtitle style, shown by its preview image. */
export const CaptionStyle = z.object({
  captionId: z.string(),
  name: z.string(),
  previewUrl: z.string().nullable(),
});
export type CaptionStyle = z.infer<typeof CaptionStyle>;

export const linkVideoVoices = defineCall({
  method: 'GET',
  path: '/link-video/voices',
  access: 'active',
  query: z.strictObject({ language: Locale.optional() }),
  data: z.array(Voice),
});

export const linkVideoMusic = defineCall({
  method: 'GET',
  path: '/link-video/music',
  access: 'active',
  data: z.array(MusicTrack),
});

export const linkVideoCaptions = defineCall({
  method: 'GET',
  path: '/link-video/captions',
  access: 'active',
  data: z.array(CaptionStyle),
});

/**
 * The product page as the browser extension captured it (rendered HTML), stored under the caller's own prefix;
 * `resKey` then goes to link analysis instead of the link being fetched. The size is bounded by the service in
 * bytes of UTF-8 (CAPTURED_PAGE_MAX_BYTES, with its own message) and by the call's body limit.
 */
export const linkVideoPageUpload = defineCall({
  method: 'POST',
  path: '/link-video/page/upload',
  access: 'active',
  body: z.strictObject({ html: z.string().trim().min(1) }),
  data: z.object({ resKey: ResKey }),
});
