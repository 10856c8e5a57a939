import { z } from 'zod';
import { defineCall } from './call.js';
import { Id, ResKey, withoutControlCharacters } from './common.js';
import { Locale } from './enums.js';
import { EditorConfig } from './tasks.js';
import { Amount, ProductOffer, TemplateId } from './templates.js';

/** A voice of the quick editor (spec "Screens and routes" screen 3: recommended or other, filtered male/female/all). */
export const Voice = z.object({
  voiceId: z.string(),
  name: z.string(),
  gender: z.enum(['male', 'female']),
  language: Locale,
  recommended: z.boolean(),
  /** A short spoken sample; null while none has been made. */
  sampleUrl: z.string().nullable(),
  /** Spoken by the built-in offline engine rather than a configured speech provider. */
  offline: z.boolean().optional(),
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

/**
 * A subtitle style, shown by its preview image (decision "Word-timed captions"): its caption rendered over a sample
 * product shot in the asked language, 4:3, at the moment a word is lit; the address names the preview's version.
 */
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
  /** The language the previews' sample line is in: the video's; absent, the caller's. */
  query: z.strictObject({ language: Locale.optional() }),
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
  // A page's control characters are its own mistake, dropped as a browser shows nothing for them (decision "Control
  // characters refused"): the extension sends what the page holds.
  body: z.strictObject({ html: z.string().transform(withoutControlCharacters).pipe(z.string().trim().min(1)) }),
  data: z.object({ resKey: ResKey }),
});

/** The frame shapes of an ad. */
export const AdAspectRatio = EditorConfig.shape.aspectRatio.unwrap();
export type AdAspectRatio = z.infer<typeof AdAspectRatio>;

/** A template as the picker shows it: one frame of its hook, rendered by the real renderer. */
export const TemplatePreview = z.object({ templateId: TemplateId, previewUrl: z.string() });
export type TemplatePreview = z.infer<typeof TemplatePreview>;

/**
 * The six templates, each with a thumbnail (decision "Template picker"). With `fileId`, one of the caller's stored
 * pictures, each thumbnail shows that product with `name` (and the offer, when given) in the hook, through a
 * signed link; without it, a sample product drawn by the renderer, the same for everyone.
 */
export const linkVideoTemplates = defineCall({
  method: 'GET',
  path: '/link-video/templates',
  access: 'active',
  query: z
    .strictObject({
      fileId: Id.optional(),
      aspectRatio: AdAspectRatio.optional(),
      /** The ad's language; absent, the name's own (or the caller's, for the sample). */
      language: Locale.optional(),
      /** What the hook says over the caller's picture: the product's name. */
      name: z.string().trim().min(1).max(120).optional(),
      price: Amount.optional(),
      currency: ProductOffer.shape.currency.optional(),
      listPrice: Amount.optional(),
    })
    // The offer's own rules, each reported on its field (the price before a sale on listPrice, a missing currency on
    // currency); a currency or a price before a sale without a price makes no offer.
    .superRefine(({ price, currency, listPrice }, ctx) => {
      if (price === undefined) {
        if (currency !== undefined || listPrice !== undefined)
          ctx.addIssue({ code: 'custom', message: 'an offer needs its price', path: ['price'] });
        return;
      }
      for (const issue of ProductOffer.safeParse({ price, currency, listPrice }).error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      }
    }),
  data: z.array(TemplatePreview),
});
