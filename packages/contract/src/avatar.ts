import { z } from 'zod';
import { defineCall } from './call.js';
import { HttpUrl, Id, ResKey } from './common.js';
import { Locale } from './enums.js';
import { GarmentType, ImageRef } from './generation.js';

/**
 * The Avatar tool's limits and price rule (decision "The Avatar tool"). A presenter video is priced per second of
 * speech, and the seconds are counted from the script before anything is spoken or charged, at the pace the voices
 * read an ad (150 words a minute, 4 Chinese characters a second, a breath after each sentence): the quote shown is
 * the charge, whatever the voice's own pace turns out to be.
 */
export const AVATAR_SCRIPT_MAX = 1200;
/** The longest presenter video a script may ask for: what the longest ad (45 s) needs, with room. */
export const AVATAR_SECONDS_MAX = 90;
const WORDS_PER_SECOND = 2.5;
const HAN_PER_SECOND = 4;
const SENTENCE_BREATH = 0.3;

const HAN = /\p{Script=Han}/gu;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const SENTENCE_END = /[.!?。！？；;]+|\n+/gu;

/** The seconds of presenter video a script is charged for: its speech at the voices' pace, whole seconds, at least one. */
export function avatarSeconds(script: string): number {
  const han = script.match(HAN)?.length ?? 0;
  const words = script.replace(HAN, ' ').match(WORD)?.length ?? 0;
  const sentences = Math.max(
    1,
    script
      .trim()
      .replace(/[.!?。！？；;\s]+$/u, '')
      .split(SENTENCE_END).length,
  );
  return Math.max(1, Math.ceil(han / HAN_PER_SECOND + words / WORDS_PER_SECOND + sentences * SENTENCE_BREATH));
}

/** The shapes a presenter video comes in. */
export const AvatarRatio = z.enum(['9:16', '1:1', '16:9']);

export const AvatarVideoInput = z.strictObject({
  /** What the presenter says, as running text: it is spoken and captioned a sentence at a time. */
  script: z
    .string()
    .trim()
    .min(1)
    .max(AVATAR_SCRIPT_MAX)
    .refine((script) => /[\p{L}\p{N}]/u.test(script), 'the script has no words to say')
    .refine((script) => avatarSeconds(script) <= AVATAR_SECONDS_MAX, `the script is longer than ${AVATAR_SECONDS_MAX} seconds of speech`),
  /** The presenter: one of the catalogue's or the caller's own (`presenterId`), or a picture of theirs or a link. */
  presenter: ImageRef.extend({ presenterId: Id.optional() }),
  /**
   * The caller states they have the right to use this person's face (decision "The Avatar tool"): needed for a
   * picture or link; a saved presenter was consented to when it was saved, and the catalogue's by the operator.
   */
  consent: z.literal(true).optional(),
  voiceId: z.string().max(64).optional(),
  /** The script's language; absent, it is read from the script. */
  language: Locale.optional(),
  ratio: AvatarRatio.default('9:16'),
  captionId: z.string().max(64).optional(),
  /** Music under the voice; absent, the voice alone. */
  musicId: z.string().max(64).optional(),
  /** A hint for the presenter's acting (gestures, mood), passed to the vendor's model. */
  prompt: z.string().max(500).optional(),
});
export type AvatarVideoInput = z.infer<typeof AvatarVideoInput>;

/**
 * Who makes presenters talk on this server: a vendor's lip-sync model, the sandbox's marked stand-in (never in
 * production), or nobody (the tool then says it is unavailable, before anything is charged).
 */
export const avatarEngine = defineCall({
  method: 'GET',
  path: '/video/avatar/engine',
  access: 'active',
  data: z.object({ engine: z.enum(['vendor', 'sandbox']).nullable() }),
});

/**
 * A script for the presenter written from a product page (decision "The Avatar tool"): the page read as link
 * analysis reads it (nothing imported, nothing charged), the script written as link to video writes one, as running
 * text the presenter can say within AVATAR_SECONDS_MAX. The language is the one asked, else the page's.
 */
export const avatarScript = defineCall({
  method: 'POST',
  path: '/video/avatar/script',
  access: 'active',
  body: z.strictObject({ productLink: HttpUrl, language: Locale.optional() }),
  data: z.object({ script: z.string(), productName: z.string(), language: Locale }),
});

/** The most presenters of their own a user may keep. */
export const OWN_PRESENTERS_MAX = 20;

/** A presenter (decision "Presenters"): the operator's catalogue, shown to everyone, or the caller's own. */
export const Presenter = z.object({
  presenterId: z.string(),
  name: z.string(),
  gender: z.enum(['female', 'male']),
  /** The languages it speaks; the tool offers it first for these. */
  languages: z.array(Locale),
  /** The voice it speaks in unless another is chosen. */
  voiceId: z.string().nullable(),
  imageUrl: z.string(),
  source: z.enum(['catalogue', 'own']),
});
export type Presenter = z.infer<typeof Presenter>;

/** A garment one product picture shows, to be worn: one piece of clothing, so never `twoPieces`. */
export const WornGarmentType = GarmentType.exclude(['twoPieces']);
export type WornGarmentType = z.infer<typeof WornGarmentType>;

/**
 * One of the caller's presenters (or the catalogue's) holding the product pictured in their file `fileId` (a picture
 * of the project, imported or uploaded: decision "Product in hand"), or wearing it when it is a garment
 * (`garmentType`): the still is kept as a presenter of the caller's own, called `name`, with the source's voice and
 * languages.
 */
export const ProductHoldingInput = z.strictObject({
  presenterId: Id,
  fileId: Id,
  name: z.string().trim().min(1).max(60),
  /** Direction for the shot (which hand, the label toward the camera); the model's own without it. Not used when worn. */
  prompt: z.string().trim().max(300).optional(),
  /** The product is a garment the presenter wears, made by the try-on provider at a try-on's price; held without it. */
  garmentType: WornGarmentType.optional(),
});
export const ProductHoldingResult = z.object({ presenter: Presenter });

export const avatarPresenters = defineCall({
  method: 'GET',
  path: '/video/avatar/presenters',
  access: 'active',
  data: z.array(Presenter),
});

/** Saves one of the caller's pictures as their own presenter, once they state they may use the face. */
export const avatarPresenterSave = defineCall({
  method: 'POST',
  path: '/video/avatar/presenters',
  access: 'active',
  body: z.strictObject({
    resKey: ResKey,
    name: z.string().trim().min(1).max(60),
    gender: z.enum(['female', 'male']),
    languages: z.array(Locale).min(1).max(3).optional(),
    voiceId: z.string().max(64).optional(),
    consent: z.literal(true),
  }),
  data: Presenter,
});

/** Removes one of the caller's own presenters (the picture stays in their library). */
export const avatarPresenterRemove = defineCall({
  method: 'POST',
  path: '/video/avatar/presenters/remove',
  access: 'active',
  body: z.strictObject({ presenterId: Id }),
  data: z.object({}),
});
