// The four generation task kinds (design "Generation"): text to video, image to video, text (or image) to image and
// virtual try-on. Each is priced by its SKU × the number of outputs, charged at submit and refunded on failure by the
// engine; `accept` refuses what cannot work before anything is charged (spec "Validation rules").
import { type SkuCode, TASKS } from '@reelsmith/contract';
import { AppError } from '../../errors.js';
import type { Part } from '../../parts.js';
import type { GenerationJob, VideoRequest } from '../../providers/provider.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { avatarVideoTask } from './avatar.js';
import { imageToVideoSku, listImageModels, listVideoModels } from './models.js';
import { checkPicture, fetchPicture } from './pictures.js';
import { providerOf, runGeneration, signedOutputs, standInOf } from './run.js';
import { imageSize, nearestRatioOf, videoSize } from './sizes.js';

type Input<K extends keyof typeof TASKS> = (typeof TASKS)[K]['input']['_output'];
type Videos = { videos: { resKey: string; url: string; posterUrl?: string }[]; standIn?: true };
type Images = { images: { resKey: string; url: string }[]; standIn?: true };

/** Several videos are made one after another, each taking minutes at a vendor. */
const VIDEO_TIMEOUT_MS = 60 * 60_000;
const IMAGE_TIMEOUT_MS = 30 * 60_000;
const NAME_PROMPT = 60;

const named = (tool: string, prompt: string | undefined, ext: string) => (index: number) =>
  `${tool}${prompt ? ` – ${prompt.slice(0, NAME_PROMPT)}` : ''} ${index}.${ext}`;

/** `count` videos of one request, one after another (a vendor makes one video a request). */
async function videosOf<R extends VideoRequest>(
  provider: { generate(request: R, job: GenerationJob): Promise<string> },
  request: R,
  count: number,
  generation: GenerationJob,
): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) files.push(await provider.generate(request, generation));
  return files;
}

/** What a video task asks for, from its input's common options. */
const videoRequest = (input: Input<'text-to-video'> | Input<'image-to-video'>) => ({
  prompt: input.prompt,
  negativePrompt: input.negativePrompt,
  duration: input.duration,
  tier: input.tier,
  model: input.videoModel,
  soundEffect: input.soundEffect,
});

/**
 * What a generation's time grows with, as its task's workload (decision "Progress estimates"): a video's model, tier,
 * length and how many; a picture's model, size and how many, and whether it edits one.
 */
const videoWorkload = (input: Input<'text-to-video'> | Input<'image-to-video'>) =>
  `${input.videoModel ?? 'default'} ${input.tier} ${input.duration}s×${input.count}`;

function checkVideoModel(ctx: Parameters<typeof listVideoModels>[0], mode: 'text' | 'image', videoModel: string | undefined) {
  if (videoModel && !listVideoModels(ctx, mode).some((m) => m.modelId === videoModel)) {
    throw new AppError('validation', { detail: `videoModel: no model ${videoModel}` });
  }
}

/**
 * A video task runs its provider's parts, and ffmpeg whoever made the video: every output is probed and given a
 * poster frame when it is stored (decision "Start-up checks").
 */
const videoOutputNeeds = (provider: { needs?: readonly Part[] } | null): readonly Part[] => ['ffmpeg', ...(provider?.needs ?? [])];

export const textToVideoTask: TaskDefinition<Input<'text-to-video'>, Videos> = {
  kind: 'text-to-video',
  needs: (ctx) => videoOutputNeeds(ctx.providers.textToVideo),
  input: TASKS['text-to-video'].input,
  timeoutMs: VIDEO_TIMEOUT_MS,
  price: (input) => ({ sku: `t2Video_${input.tier}_${input.duration}s` as SkuCode, count: input.count }),
  workload: videoWorkload,
  async accept(ctx, _user, input) {
    providerOf(ctx, 'textToVideo');
    checkVideoModel(ctx, 'text', input.videoModel);
  },
  async run(job) {
    const { input, ctx } = job;
    const provider = providerOf(ctx, 'textToVideo');
    const outputs = await runGeneration(job, {
      prepare: async () => videoSize(input.ratio, input.tier),
      generate: (size, generation) => videosOf(provider, { ...videoRequest(input), ...size }, input.count, generation),
      name: named('Text to video', input.prompt, 'mp4'),
      madeBy: provider,
    });
    return { videos: await signedOutputs(ctx, outputs, 'video'), ...standInOf(provider) };
  },
  view: async (result, ctx) => ({ ...result, videos: await signedOutputs(ctx, result.videos, 'video') }),
};

export const imageToVideoTask: TaskDefinition<Input<'image-to-video'>, Videos> = {
  kind: 'image-to-video',
  needs: (ctx) => videoOutputNeeds(ctx.providers.imageToVideo),
  input: TASKS['image-to-video'].input,
  timeoutMs: VIDEO_TIMEOUT_MS,
  // The engine that will do the work chooses the SKU, as GET /video/models tells the tool that quotes it.
  price: (input, ctx) => ({ sku: imageToVideoSku(ctx, input.tier, input.duration), count: input.count }),
  workload: videoWorkload,
  async accept(ctx, user, input) {
    if (!input.image.resKey && !input.image.imageUrl) throw new AppError('sourceImageRequired');
    await checkPicture(ctx, user.userId, input.image);
    providerOf(ctx, 'imageToVideo');
    checkVideoModel(ctx, 'image', input.videoModel);
  },
  async run(job) {
    const { input, ctx } = job;
    const provider = providerOf(ctx, 'imageToVideo');
    const outputs = await runGeneration(job, {
      prepare: (dir) => fetchPicture(ctx, job.userId, input.image, dir, 'image'),
      async generate(picture, generation) {
        const size = videoSize(nearestRatioOf(picture.width, picture.height), input.tier);
        return videosOf(provider, { ...videoRequest(input), ...size, image: picture.path }, input.count, generation);
      },
      name: named('Image to video', input.prompt, 'mp4'),
      madeBy: provider,
    });
    return { videos: await signedOutputs(ctx, outputs, 'video'), ...standInOf(provider) };
  },
  view: async (result, ctx) => ({ ...result, videos: await signedOutputs(ctx, result.videos, 'video') }),
};

export const textToImageTask: TaskDefinition<Input<'text-to-image'>, Images> = {
  kind: 'text-to-image',
  needs: (ctx) => [...(ctx.providers.textToImage?.needs ?? []), ...(ctx.providers.imageToImage?.needs ?? [])],
  input: TASKS['text-to-image'].input,
  timeoutMs: IMAGE_TIMEOUT_MS,
  price: (input) => ({
    sku: input.imageModel === 'v2' ? 'imageGenV2' : 'imageGen',
    count: input.count,
    madeBy: input.image ? 'imageToImage' : 'textToImage',
  }),
  workload: (input) => `${input.image ? 'edit' : 'new'} ${input.imageModel} ${input.quality}×${input.count}`,
  async accept(ctx, user, input) {
    if (input.image) await checkPicture(ctx, user.userId, input.image);
    providerOf(ctx, input.image ? 'imageToImage' : 'textToImage');
    // "Detailed" is a second model, priced higher: refused where none is set (decision "Image models named by what they do").
    if (!listImageModels(ctx, input.image ? 'image' : 'text').includes(input.imageModel)) throw new AppError('imageModelUnavailable');
  },
  async run(job) {
    const { input, ctx } = job;
    const size = imageSize(input.ratio, input.quality);
    const request = {
      prompt: input.prompt,
      negativePrompt: input.negativePrompt,
      ...size,
      count: input.count,
      model: input.imageModel,
      quality: input.quality,
    };
    const madeBy = providerOf(ctx, input.image ? 'imageToImage' : 'textToImage');
    const outputs = await runGeneration(job, {
      prepare: async (dir) => (input.image ? (await fetchPicture(ctx, job.userId, input.image, dir, 'image')).path : undefined),
      generate: (image, generation) =>
        image
          ? providerOf(ctx, 'imageToImage').generate({ ...request, image }, generation)
          : providerOf(ctx, 'textToImage').generate(request, generation),
      name: named(input.image ? 'Image to image' : 'Text to image', input.prompt, 'png'),
      madeBy,
    });
    return { images: await signedOutputs(ctx, outputs, 'image'), ...standInOf(madeBy) };
  },
  view: async (result, ctx) => ({ ...result, images: await signedOutputs(ctx, result.images, 'image') }),
};

/** Which garments a try-on needs (spec "Validation rules"): top for top and one-piece, bottom for bottom, both for two pieces. */
function garmentsNeeded(type: Input<'virtual-try-on'>['garmentType']) {
  return { top: type !== 'bottom', bottom: type === 'bottom' || type === 'twoPieces' };
}

export const virtualTryOnTask: TaskDefinition<Input<'virtual-try-on'>, Images> = {
  kind: 'virtual-try-on',
  needs: (ctx) => ctx.providers.virtualTryOn?.needs ?? [],
  input: TASKS['virtual-try-on'].input,
  timeoutMs: IMAGE_TIMEOUT_MS,
  price: (input) => ({ sku: 'imageTryOn', count: input.count }),
  workload: (input) => `×${input.count}`,
  async accept(ctx, user, input) {
    const { model } = input;
    if (!model.resKey && !model.imageUrl && !model.modelId) throw new AppError('tryOnModelRequired');
    await checkPicture(ctx, user.userId, model, 'model');
    const needed = garmentsNeeded(input.garmentType);
    if (needed.top && !input.top) throw new AppError('tryOnTopRequired');
    if (needed.bottom && !input.bottom) throw new AppError('tryOnBottomRequired');
    if (needed.top && input.top) await checkPicture(ctx, user.userId, input.top, 'garment');
    if (needed.bottom && input.bottom) await checkPicture(ctx, user.userId, input.bottom, 'garment');
    providerOf(ctx, 'virtualTryOn');
  },
  async run(job) {
    const { input, ctx } = job;
    const needed = garmentsNeeded(input.garmentType);
    const provider = providerOf(ctx, 'virtualTryOn');
    const outputs = await runGeneration(job, {
      async prepare(dir) {
        const model = await fetchPicture(ctx, job.userId, input.model, dir, 'model');
        const top = needed.top && input.top ? await fetchPicture(ctx, job.userId, input.top, dir, 'top') : undefined;
        const bottom = needed.bottom && input.bottom ? await fetchPicture(ctx, job.userId, input.bottom, dir, 'bottom') : undefined;
        return { model: model.path, top: top?.path, bottom: bottom?.path };
      },
      generate: (pictures, generation) =>
        provider.generate({ garmentType: input.garmentType, ...pictures, count: input.count }, generation),
      name: named('Virtual try-on', input.garmentType, 'png'),
      madeBy: provider,
    });
    return { images: await signedOutputs(ctx, outputs, 'image'), ...standInOf(provider) };
  },
  view: async (result, ctx) => ({ ...result, images: await signedOutputs(ctx, result.images, 'image') }),
};

export const GENERATION_TASKS = [textToVideoTask, imageToVideoTask, textToImageTask, virtualTryOnTask, avatarVideoTask] as const;
