// The image-edit tools of spec "The calls" as task kinds: remove-background, product-background, expand-image and
// enlarge-image. Each checks everything it can before the charge (the picture is the caller's and readable, the
// tool's own rules, a provider exists), then reads the picture into its work directory, asks the capability's
// provider, and stores what it made as one of the caller's generated assets.
import { randomUUID } from 'node:crypto';
import { ENHANCE_MAX_LONG_SIDE, type SkuCode, TASKS } from '@reelsmith/contract';
import { backgroundPreset, type Canvas, CanvasError, canvasForRatio, checkCanvas } from '@reelsmith/media';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { type GenerationJob, type GenerationProviders, isSandbox } from '../../providers/provider.js';
import { ingest } from '../files/ingest.js';
import { addFile } from '../files/records.js';
import { withWorkDir } from '../files/workDir.js';
import { standInOf } from '../generation/run.js';
import type { TaskDefinition, TaskJob } from '../tasks/definition.js';
import { presetBackgroundFile } from './backgrounds.js';
import { checkResultSize } from './bounds.js';
import { fetchImage, inspectImage, requireImage, type SourceImage } from './source.js';

type Input<K extends keyof typeof TASKS> = (typeof TASKS)[K]['input']['_output'];
type ImagesResult = { images: { resKey: string; url: string }[]; standIn?: true };
type Capability = 'removeBackground' | 'replaceBackground' | 'extendImage' | 'upscale';
type Provider<C extends Capability> = NonNullable<GenerationProviders[C]>;

interface ImageTool<K extends 'remove-background' | 'product-background' | 'expand-image' | 'enlarge-image', C extends Capability> {
  kind: K;
  sku: SkuCode;
  capability: C;
  /** The tool's own rules, checked without the picture (before it is fetched). */
  checkInput?(ctx: AppContext, userId: string, input: Input<K>): Promise<void> | void;
  /** The tool's rules on the picture's facts. */
  checkImage?(input: Input<K>, image: { width: number; height: number }): void;
  /** The provider's work on the fetched picture; answers the output's path. */
  make(provider: Provider<C>, input: Input<K>, source: SourceImage, job: GenerationJob, task: TaskJob<Input<K>>): Promise<string>;
}

/** The capability's provider; a clear error when none is configured (checked before the charge, and again in the run). */
function providerOf<C extends Capability>(ctx: AppContext, capability: C): Provider<C> {
  const provider = ctx.providers[capability];
  if (!provider) throw new AppError('imageToolUnavailable');
  return provider as Provider<C>;
}

/**
 * What each tool's output is called in the library, after the picture it was made from ("model – Extended.jpg"),
 * as the generation tools name theirs after the tool and the prompt.
 */
const OUTPUT_NAMES = {
  'remove-background': 'Background removed',
  'product-background': 'New background',
  'expand-image': 'Extended',
  'enlarge-image': 'Enhanced',
} as const;

/** Stores an output as a generated asset of the caller (listed in the library) and answers its key and link. */
async function storeOutput(
  task: TaskJob<unknown>,
  path: string,
  kind: keyof typeof OUTPUT_NAMES,
  source: SourceImage,
  madeBy: { name: string },
) {
  const { ctx } = task;
  const fileId = randomUUID();
  const stored = await ingest(ctx, { userId: task.userId, fileId, path, signal: task.signal });
  const name = `${source.title.slice(0, 120)} – ${OUTPUT_NAMES[kind]}.${stored.format}`;
  await addFile(ctx, { userId: task.userId, fileId, name, source: 'generated', standIn: isSandbox(madeBy) }, stored);
  return { resKey: stored.resKey, url: await ctx.storage.downloadUrl(stored.resKey) };
}

function imageTool<K extends 'remove-background' | 'product-background' | 'expand-image' | 'enlarge-image', C extends Capability>(
  tool: ImageTool<K, C>,
): TaskDefinition<Input<K>, ImagesResult> {
  return {
    kind: tool.kind,
    input: TASKS[tool.kind].input as unknown as TaskDefinition<Input<K>, ImagesResult>['input'],
    // The local engine's parts (the cut-out model); a remote vendor's none (decision "Start-up checks").
    needs: (ctx) => ctx.providers[tool.capability]?.needs ?? [],
    price: () => ({ sku: tool.sku, count: 1 }),
    async accept(ctx, user, input) {
      requireImage(input);
      await tool.checkInput?.(ctx, user.userId, input);
      providerOf(ctx, tool.capability);
      const image = await inspectImage(ctx, user.userId, input);
      tool.checkImage?.(input, image);
    },
    async run(task) {
      const { ctx, input, signal } = task;
      const provider = providerOf(ctx, tool.capability);
      return withWorkDir(ctx.settings, async (workDir) => {
        await task.progress('parsing');
        const source = await fetchImage(ctx, task.userId, input, workDir);
        await task.progress('understanding');
        tool.checkImage?.(input, source);
        signal.throwIfAborted();
        await task.progress('initialFrames');
        const job: GenerationJob = { workDir, signal, progress: (stage) => task.progress(stage) };
        const output = await tool.make(provider, input, source, job, task);
        signal.throwIfAborted();
        await task.progress('polishing');
        return { images: [await storeOutput(task, output, tool.kind, source, provider)], ...standInOf(provider) };
      });
    },
    async view(result, ctx) {
      return {
        ...result,
        images: await Promise.all(result.images.map(async (image) => ({ ...image, url: await ctx.storage.downloadUrl(image.resKey) }))),
      };
    },
  };
}

export const removeBackgroundTask = imageTool({
  kind: 'remove-background',
  sku: 'imageBg',
  capability: 'removeBackground',
  async make(provider, _input, source, job) {
    await job.progress('rendering');
    return provider.cutOut(source.path, job);
  },
});

export const productBackgroundTask = imageTool({
  kind: 'product-background',
  sku: 'imageBg',
  capability: 'replaceBackground',
  async checkInput(ctx, userId, input) {
    if (!input.backgroundId && !input.backgroundResKey) throw new AppError('backgroundRequired');
    if (input.backgroundId && !backgroundPreset(input.backgroundId)) throw new AppError('backgroundNotFound');
    if (!input.backgroundId && input.backgroundResKey) await inspectImage(ctx, userId, { resKey: input.backgroundResKey });
  },
  async make(provider, input, source, job, task) {
    const background = input.backgroundId
      ? await presetBackgroundFile(task.ctx, input.backgroundId)
      : (await fetchImage(task.ctx, task.userId, { resKey: input.backgroundResKey }, job.workDir, 'background')).path;
    await job.progress('rendering');
    return provider.replace({ image: source.path, background, prompt: input.prompt }, job);
  },
});

/** The canvas the input asks for: its own, or one of a ratio around the picture; refused when it cannot hold it. */
function canvasOf(input: Input<'expand-image'>, image: { width: number; height: number }): Canvas {
  try {
    if (input.canvas) {
      checkCanvas(image, input.canvas);
      return input.canvas;
    }
    if (input.ratio) return canvasForRatio(image, input.ratio);
  } catch (error) {
    if (error instanceof CanvasError) throw new AppError('expandCanvasInvalid', {}, { cause: error });
    throw error;
  }
  throw new AppError('expandCanvasRequired');
}

export const expandImageTask = imageTool({
  kind: 'expand-image',
  sku: 'extendImg',
  capability: 'extendImage',
  checkInput(_ctx, _userId, input) {
    if (!input.canvas && !input.ratio) throw new AppError('expandCanvasRequired');
  },
  // The canvas is the result: bounded like every tool's (a ratio of 99:1 or a huge free frame is refused here).
  checkImage: (input, image) => checkResultSize(canvasOf(input, image)),
  async make(provider, input, source, job) {
    await job.progress('rendering');
    return provider.extend({ image: source.path, ...canvasOf(input, source) }, job);
  },
});

export const enlargeImageTask = imageTool({
  kind: 'enlarge-image',
  sku: 'imageEnhance',
  capability: 'upscale',
  checkImage(_input, image) {
    // The spec's own bound on the picture bounds the result too: at most 1920 px × 4 = 7680 px a side (59 MP, which
    // the enlargement streams through in about 140 MB), so a picture the spec accepts is never refused for its result.
    if (Math.max(image.width, image.height) > ENHANCE_MAX_LONG_SIDE) throw new AppError('enhanceTooLarge', { max: ENHANCE_MAX_LONG_SIDE });
  },
  async make(provider, input, source, job) {
    await job.progress('rendering');
    return provider.upscale({ image: source.path, scale: input.scale }, job);
  },
});

export const IMAGE_EDIT_TASKS = [removeBackgroundTask, productBackgroundTask, expandImageTask, enlargeImageTask];
