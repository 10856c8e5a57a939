import { z } from 'zod';
import { AvatarVideoInput, ProductHoldingInput, ProductHoldingResult } from './avatar.js';
import { defineCall } from './call.js';
import { HttpUrl, Id, ResKey } from './common.js';
import { EXPAND_RATIO_MAX, EXPORT_VIDEO_LENGTH_TYPE, expandRatioAllowed, MAX_ASSETS_PER_PROJECT, UPSCALE_N } from './constants.js';
import { Locale, ProgressStage, type TaskKind, TaskStatus } from './enums.js';
import {
  GeneratedImage,
  GeneratedVideo,
  ImageGenerateInput,
  ImageRef,
  ImageToVideoInput,
  TextToVideoInput,
  VirtualTryOnInput,
} from './generation.js';
import { PresenterLayout, ProductOffer, TemplateId } from './templates.js';

/**
 * The page's review summary: stars out of 5 (a page that rates out of 10 or 100 is scaled) and how many reviews
 * or ratings give them. The local script writer's social-proof lines need it (decision "Scripts from page facts").
 */
export const ProductRating = z.strictObject({
  value: z.number().min(0).max(5),
  count: z.number().int().min(0).max(1_000_000_000),
});
export type ProductRating = z.infer<typeof ProductRating>;

/** Whether the product can be bought now, as the page states it (schema.org ItemAvailability, folded). */
export const ProductAvailability = z.enum(['inStock', 'limited', 'preOrder', 'outOfStock']);
export type ProductAvailability = z.infer<typeof ProductAvailability>;

/**
 * What else the page states about the product, each part only when it does: availability, feature bullets,
 * materials, the sizes and colours it comes in, and the page's language (a BCP 47 primary tag: "pt", "zh").
 */
export const ProductFacts = z.strictObject({
  availability: ProductAvailability.optional(),
  features: z.array(z.string().max(300)).max(12).optional(),
  materials: z.array(z.string().max(100)).max(6).optional(),
  variants: z.array(z.string().max(100)).max(24).optional(),
  language: z
    .string()
    .max(3)
    .regex(/^[a-z]{2,3}$/)
    .optional(),
});
export type ProductFacts = z.infer<typeof ProductFacts>;

/**
 * The language an ad is spoken in, as far as the choices and the page tell it: the one chosen in the editor, else
 * the page's own when it is one we speak (decision "Product facts"); undefined when only the product's text can
 * tell (the server reads it). The previews and the template picker's thumbnails both follow it, so a Portuguese
 * shop's thumbnail is not drawn in English for a name with no accents.
 */
export const adLanguage = (chosen: Locale | undefined, facts: Pick<ProductFacts, 'language'> | null | undefined): Locale | undefined =>
  chosen ?? Locale.safeParse(facts?.language).data;

/** editorConfig of link-video (design "Contract details"); missing fields take their defaults. */
export const EditorConfig = z.strictObject({
  videoLength: z.union([z.literal(15), z.literal(30), z.literal(45)]).default(15),
  aspectRatio: z.enum(['9:16', '1:1', '16:9']).default('9:16'),
  resultNum: z.number().int().min(1).max(5).default(3),
  voiceId: z.string().max(64).optional(),
  captionId: z.string().max(64).optional(),
  musicId: z.string().max(64).optional(),
  language: Locale.optional(),
  /** The visual style; absent, the previews each get a different one chosen for the product. */
  templateId: TemplateId.optional(),
  /** A presenter on camera (decision "Presenter in link to video"): one of the caller's or the catalogue's. */
  presenterId: Id.optional(),
  /** Where the presenter stands (decision "Presenter layouts"); absent, where each preview's template puts them. */
  presenterLayout: PresenterLayout.optional(),
});
export type EditorConfig = z.infer<typeof EditorConfig>;

export const MediaRef = z.object({ fileId: z.string().optional(), fileUrl: z.string().optional() });

/**
 * Why a page's pictures could not be imported, by class (decision "Media import report"): the shop refused the
 * download (401, 403, 429…), the file is gone (404, 410), the shop could not be reached (no answer, a timeout, a
 * 5xx), the address is not a public one, the file is not a picture or video that can be used (format, size,
 * damage), or the user's storage is full.
 */
/** `notPhoto`: imported, measured, and dropped as an icon, tracking pixel or banner beside real photos. */
export const MediaImportFailure = z.enum(['refused', 'notFound', 'unreachable', 'blocked', 'unusable', 'storageFull', 'notPhoto']);
export type MediaImportFailure = z.infer<typeof MediaImportFailure>;

/**
 * How the pictures and videos a page names went into the project: how many the page named, how many of those tried
 * could not be imported, and the commonest reason among them. Candidates past the 30-asset cap are not tried.
 */
export const MediaImportReport = z.object({
  imagesFound: z.number().int().min(0),
  imagesFailed: z.number().int().min(0),
  videosFound: z.number().int().min(0),
  videosFailed: z.number().int().min(0),
  failure: MediaImportFailure.optional(),
});
export type MediaImportReport = z.infer<typeof MediaImportReport>;

export const ScriptSegment = z.strictObject({ segId: z.number().int().min(0).max(200), segText: z.string().max(2000) });
export const ScriptContent = z.object({ scriptId: z.string(), segments: z.array(ScriptSegment) });
/** A rendered video and the template it was made in. */
export const PreviewVideo = z.object({
  resKey: z.string(),
  scriptId: z.string(),
  videoUrl: z.string(),
  taskId: z.string(),
  templateId: TemplateId.optional(),
  /**
   * The presenter on camera and the whole seconds they are on screen: the export adds that many seconds of
   * `avatarVideo` to its price, for their lip-synced clips (decision "Presenter in link to video").
   */
  presenterId: z.string().optional(),
  presenterSeconds: z.number().int().min(0).optional(),
  /** Where the presenter stands in it: the one chosen, else its template's (decision "Presenter layouts"). */
  presenterLayout: PresenterLayout.optional(),
});
/**
 * An exported video: `videoUrl` plays it, `downloadUrl` saves it as `fileName` (`<project>-<n>-<length>s.mp4`); its
 * length and shape let the export page show it at its own shape. Exports made before these fields existed lack them.
 */
export const ExportVideo = z.object({
  resKey: z.string(),
  videoUrl: z.string(),
  taskId: z.string(),
  templateId: TemplateId.optional(),
  fileName: z.string().optional(),
  downloadUrl: z.string().optional(),
  seconds: z.number().optional(),
  aspectRatio: EditorConfig.shape.aspectRatio.unwrap().optional(),
  /** Which preview (1, 2 or 3) it was rendered from, as its file name says; absent on exports made before it was kept. */
  previewNumber: z.number().int().optional(),
});

/** Fields every task query answers (design "Contract details"); `error` on FAILURE is JSON text `{"message": …}`. */
export const TaskState = z.object({
  taskId: z.string(),
  status: TaskStatus,
  progress: ProgressStage.optional(),
  error: z.string().optional(),
  /**
   * While the task waits or runs: how long tasks like it have taken on this server from submission to success (the
   * median of the recent ones), and how long ago it was submitted, in whole seconds. Both absent when the server
   * has too few such tasks to tell (decision "Progress estimates").
   */
  expectedSeconds: z.number().int().min(0).optional(),
  elapsedSeconds: z.number().int().min(0).optional(),
});

/** Present (true) only when the sandbox's free stand-in made the outputs, not a real AI model: placeholders marked SANDBOX. */
const StandIn = z.literal(true).optional();
const Images = z.object({ images: z.array(GeneratedImage), standIn: StandIn });
const Videos = z.object({ videos: z.array(GeneratedVideo), standIn: StandIn });

export const TASKS = {
  'link-analysis': {
    input: z.strictObject({ projectId: Id, productLink: HttpUrl, resKey: ResKey.optional() }),
    result: z.object({
      productName: z.string(),
      productDescription: z.string(),
      productImages: z.array(MediaRef),
      productVideos: z.array(MediaRef),
      /** The price the page states, when it states one the analysis could read. */
      productOffer: ProductOffer.optional(),
      productBrand: z.string().optional(),
      productRating: ProductRating.optional(),
      /** The rest of what the page states: availability, features, materials, variants, language. */
      productFacts: ProductFacts.optional(),
      /** How the page's pictures and videos were imported; absent from analyses made before it was kept. */
      mediaImport: MediaImportReport.optional(),
    }),
  },
  'link-video': {
    input: z.strictObject({
      projectId: Id,
      productLink: HttpUrl,
      productName: z.string().trim().min(1).max(500),
      productDescription: z.string().max(10_000),
      /** Shown on the offer and end cards; no price, no offer card. */
      productOffer: ProductOffer.optional(),
      productBrand: z.string().trim().max(200).optional(),
      /** Said by the scripts only when the page gave it. */
      productRating: ProductRating.optional(),
      /** The page's other facts, for the scripts (features) and the defaults (language). */
      productFacts: ProductFacts.optional(),
      diyScript: z.boolean().optional(),
      diyScriptContent: z.string().max(10_000).optional(),
      fileIds: z.array(Id).min(1).max(MAX_ASSETS_PER_PROJECT),
      editorConfig: EditorConfig.optional(),
      captionId: z.string().max(64).optional(),
      voiceId: z.string().max(64).optional(),
    }),
    result: z.object({ previewVideos: z.array(PreviewVideo), scriptContentList: z.array(ScriptContent) }),
  },
  'script-update': {
    input: z.strictObject({
      projectId: Id,
      taskId: Id,
      resultNum: z.number().int().min(1).max(5),
      scriptId: Id,
      scriptContents: z.array(ScriptSegment).min(1).max(100),
      /** The quick editor's other choices for this preview; absent ones keep the link-video task's. */
      voiceId: z.string().max(64).optional(),
      captionId: z.string().max(64).optional(),
      musicId: z.string().max(64).optional(),
      templateId: TemplateId.optional(),
      /** The presenter on camera from now on; null takes them out of the preview. */
      presenterId: Id.nullable().optional(),
      /** Where the presenter stands from now on; null leaves it to the template (decision "Presenter layouts"). */
      presenterLayout: PresenterLayout.nullable().optional(),
    }),
    result: z.object({ previewVideos: z.array(PreviewVideo), scriptContentList: z.array(ScriptContent) }),
  },
  'export-video': {
    input: z.strictObject({
      projectId: Id,
      taskId: Id,
      resultNum: z.number().int().min(1).max(5),
      scriptId: Id,
      videoLengthType: z.literal(EXPORT_VIDEO_LENGTH_TYPE),
      /**
       * Whether the video carries an "AI-generated" label (and metadata tag); absent, it does when a scene was
       * made by a generative provider (decision "AI-generated label").
       */
      aiLabel: z.boolean().optional(),
    }),
    result: z.object({ exportVideos: z.array(ExportVideo) }),
  },
  'remove-background': {
    input: ImageRef,
    result: Images,
  },
  'product-background': {
    input: ImageRef.extend({
      backgroundId: z.string().max(64).optional(),
      backgroundResKey: ResKey.optional(),
      prompt: z.string().max(2000).optional(),
    }),
    result: Images,
  },
  'expand-image': {
    input: ImageRef.extend({
      ratio: z
        .string()
        .regex(/^\d{1,2}:\d{1,2}$/)
        .refine(expandRatioAllowed, `the ratio must be between 1:${EXPAND_RATIO_MAX} and ${EXPAND_RATIO_MAX}:1`)
        .optional(),
      canvas: z
        .strictObject({
          width: z.number().int().min(16).max(8192),
          height: z.number().int().min(16).max(8192),
          left: z.number().int().min(0).max(8192),
          top: z.number().int().min(0).max(8192),
        })
        .optional(),
    }),
    result: Images,
  },
  'enlarge-image': {
    input: ImageRef.extend({ scale: z.union([z.literal(2), z.literal(4)]).default(2), n: z.literal(UPSCALE_N).default(UPSCALE_N) }),
    result: Images,
  },
  'text-to-video': { input: TextToVideoInput, result: Videos },
  'image-to-video': { input: ImageToVideoInput, result: Videos },
  /** Text to image, or image to image when `image` is given. */
  'text-to-image': { input: ImageGenerateInput, result: Images },
  'virtual-try-on': { input: VirtualTryOnInput, result: Images },
  'avatar-video': { input: AvatarVideoInput, result: Videos },
  'product-holding': { input: ProductHoldingInput, result: ProductHoldingResult },
} as const satisfies Record<TaskKind, { input: z.ZodType; result: z.ZodObject }>;

/** The generation tools are submitted at the spec's own paths ("The calls" Other calls); every other kind at /task/v1/<kind>/submit. */
const SPEC_SUBMIT_PATHS: Partial<Record<TaskKind, string>> = {
  'text-to-video': '/video/text2video',
  'image-to-video': '/video/image2video',
  'text-to-image': '/image/generate',
  'virtual-try-on': '/image/virtualTryOn',
};
export const taskSubmitPath = (kind: TaskKind) => SPEC_SUBMIT_PATHS[kind] ?? `/task/v1/${kind}/submit`;
export const taskQueryPath = (kind: TaskKind) => `/task/v1/${kind}/query`;

export const taskSubmit = <K extends TaskKind>(kind: K) =>
  defineCall({
    method: 'POST',
    path: taskSubmitPath(kind),
    access: 'active',
    body: TASKS[kind].input as (typeof TASKS)[K]['input'],
    data: z.object({ taskId: z.string(), status: TaskStatus.optional() }),
  });

/** What a task query answers: its state and, on SUCCESS, the result fields of its kind. */
export type TaskQueryData<K extends TaskKind> = z.infer<typeof TaskState> & Partial<z.infer<(typeof TASKS)[K]['result']>>;

/** The result fields are present on SUCCESS only, hence partial. */
export const taskQuery = <K extends TaskKind>(kind: K) =>
  defineCall({
    method: 'GET',
    path: taskQueryPath(kind),
    access: 'active',
    query: z.strictObject({ taskId: Id }),
    data: TaskState.extend(TASKS[kind].result.partial().shape) as unknown as z.ZodType<TaskQueryData<K>>,
  });

export const taskCancelPath = (kind: TaskKind) => `/task/v1/${kind}/cancel`;

/**
 * Cancels a task, queued or running: it ends FAILURE at once with its credits returned, and the answer is that
 * state. A task that has already ended is refused with taskNotCancellable (too late): it stays as it ended.
 */
export const taskCancel = (kind: TaskKind) =>
  defineCall({
    method: 'POST',
    path: taskCancelPath(kind),
    access: 'active',
    body: z.strictObject({ taskId: Id }),
    data: TaskState,
  });
