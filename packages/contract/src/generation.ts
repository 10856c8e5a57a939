import { z } from 'zod';
import { defineCall } from './call.js';
import { HttpUrl, ResKey, Timestamp } from './common.js';
import { GenerationTool, ProductCategory, ProgressStage, TaskStatus } from './enums.js';

/** The generation options of spec "Entities". The calls that take them are tasks (`TASKS` in tasks.ts): one task makes
 * `count` outputs and is polled at /task/v1/<kind>/query. */
const Prompt = z.string().trim().min(1).max(2000);
const NegativePrompt = z.string().max(2000).optional();
const Ratio = z.enum(['9:16', '16:9', '1:1', '3:4', '4:3']);
/** An input picture: one of the caller's stored files (resKey) or a link to fetch. */
export const ImageRef = z.strictObject({ imageUrl: HttpUrl.optional(), resKey: ResKey.optional() });

/** One picture a generation made, stored in the caller's files. */
export const GeneratedImage = z.object({ resKey: z.string(), url: z.string() });
/** One video a generation made, with its poster frame. */
export const GeneratedVideo = z.object({ resKey: z.string(), url: z.string(), posterUrl: z.string().optional() });

export const TextToVideoInput = z.strictObject({
  prompt: Prompt,
  negativePrompt: NegativePrompt,
  duration: z.union([z.literal(5), z.literal(10)]),
  ratio: Ratio,
  tier: z.enum(['std', 'pro']).default('std'),
  videoModel: z.string().max(64).optional(),
  soundEffect: z.boolean().default(false),
  count: z.number().int().min(1).max(4).default(1),
});

export const ImageToVideoInput = z.strictObject({
  image: ImageRef,
  prompt: z.string().max(2000).optional(),
  negativePrompt: NegativePrompt,
  duration: z.union([z.literal(5), z.literal(10)]),
  tier: z.enum(['std', 'pro']).default('std'),
  videoModel: z.string().max(64).optional(),
  soundEffect: z.boolean().default(false),
  count: z.number().int().min(1).max(4).default(1),
});

export const ImageGenerateInput = z.strictObject({
  prompt: Prompt,
  negativePrompt: NegativePrompt,
  image: ImageRef.optional(),
  ratio: Ratio,
  imageModel: z.enum(['v1', 'v2']).default('v1'),
  quality: z.enum(['standard', 'high']).default('standard'),
  count: z.number().int().min(1).max(4).default(1),
});

export const GarmentType = z.enum(['top', 'bottom', 'onePiece', 'twoPieces']);

/** The person: one of the caller's pictures, a link, or a preset model of /image/getHumanInfo. */
export const ModelRef = ImageRef.extend({ modelId: z.string().max(64).optional() });
/** A garment: one of the caller's pictures, a link, or an apparel template of /image/getClothInfo. */
export const GarmentRef = ImageRef.extend({ templateId: z.string().max(64).optional() });

export const VirtualTryOnInput = z.strictObject({
  garmentType: GarmentType,
  model: ModelRef,
  top: GarmentRef.optional(),
  bottom: GarmentRef.optional(),
  count: z.number().int().min(1).max(4).default(1),
});

export const ClothCheck = z.object({
  ok: z.boolean(),
  reason: z
    .enum([
      'noCloth',
      'multipleClothes',
      'onlyOneDress',
      'multipleSimilarClothes',
      'typeNotSupported',
      'worn',
      'background',
      'size',
      'format',
    ])
    .nullable(),
  garmentType: GarmentType.nullable(),
});

export const imageClothDesc = defineCall({
  method: 'GET',
  path: '/image/getClothDesc',
  access: 'active',
  query: z.strictObject({ url: z.string().max(4096) }),
  data: ClothCheck.extend({ description: z.string() }),
});

export const imageHumanInfo = defineCall({
  method: 'GET',
  path: '/image/getHumanInfo',
  access: 'active',
  data: z.array(z.object({ modelId: z.string(), name: z.string(), imageUrl: z.string(), gender: z.enum(['male', 'female']) })),
});

export const imageClothInfo = defineCall({
  method: 'GET',
  path: '/image/getClothInfo',
  access: 'active',
  data: z.array(z.object({ templateId: z.string(), name: z.string(), imageUrl: z.string(), garmentType: GarmentType })),
});

export const videoModels = defineCall({
  method: 'GET',
  path: '/video/models',
  access: 'active',
  query: z.strictObject({ mode: z.enum(['text', 'image']).optional() }),
  data: z.array(
    z.object({
      modelId: z.string(),
      name: z.string(),
      tiers: z.array(z.enum(['std', 'pro'])),
      durations: z.array(z.number()),
      /** Who makes the videos: this server's own engine or a vendor model; it chooses the SKU (img2VideoLocal_… or img2Video_…). */
      engine: z.enum(['local', 'vendor']),
    }),
  ),
});

/**
 * The image models text to image (`mode=text`) or image to image (`mode=image`) offers on this server, named by
 * what they do (decision "Image models named by what they do"): "Fast" (`v1`, imageGen) wherever the tool works,
 * "Detailed" (`v2`, imageGenV2) only where a second model is set for it. Empty: the tool is not available here.
 */
export const imageModels = defineCall({
  method: 'GET',
  path: '/image/models',
  access: 'active',
  query: z.strictObject({ mode: z.enum(['text', 'image']) }),
  data: z.array(z.enum(['v1', 'v2'])),
});

export const productBackgroundList = defineCall({
  method: 'GET',
  path: '/mis/product-background/list',
  access: 'active',
  query: z.strictObject({ category: z.string().max(64).optional() }),
  data: z.array(z.object({ backgroundId: z.string(), name: z.string(), imageUrl: z.string(), category: z.string() })),
});

export const productDemo = defineCall({
  method: 'GET',
  path: '/mis/product-demo',
  access: 'public',
  data: z.array(z.object({ category: ProductCategory, name: z.string(), prompt: z.string(), imageUrl: z.string() })),
});

/** One entry of a tool's generation history: what was asked, how far it got, what it made. */
export const GenerationRecord = z.object({
  taskId: z.string(),
  tool: GenerationTool,
  status: TaskStatus,
  progress: ProgressStage.nullable(),
  input: z.record(z.string(), z.unknown()),
  outputs: z.array(GeneratedVideo),
  /** On FAILURE, the message in the caller's language. */
  error: z.string().nullable(),
  createTime: Timestamp,
  /** Present (true) only when the sandbox's free stand-in made the outputs, not a real AI model: placeholders marked SANDBOX. */
  standIn: z.literal(true).optional(),
});
export type GenerationRecord = z.infer<typeof GenerationRecord>;

/**
 * A tool's history, newest first, a page at a time (a page shorter than pageSize is the last). `tool` may name
 * several tools, the modes of one page (AI background removes or replaces): their tasks come in one list, each
 * record naming its own tool.
 */
export const generationHistory = defineCall({
  method: 'POST',
  path: '/generation/history',
  access: 'active',
  body: z.strictObject({
    tool: z.union([GenerationTool, z.array(GenerationTool).min(1).max(GenerationTool.options.length)]),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1).max(100),
  }),
  data: z.array(GenerationRecord),
});
