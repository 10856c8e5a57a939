// A vendor's models as providers of our capabilities: each vendor supplies how it runs a model (its protocol) and
// what input each capability's model takes (its shapes); this turns the answers into files in the job's work
// directory. A capability is served by the vendor the settings chose for it.

import { join } from 'node:path';
import { cutSpeech, imageInfo, joinTalkingClips, probe, talkingSpans } from '@reelsmith/media';
import sharp from 'sharp';
import { mediaToolsOf } from '../../modules/files/workDir.js';
import type { ProviderChoice, RemoteCapability, Settings, Vendor } from '../../settings.js';
import { ProviderError } from '../http.js';
import type {
  ExtendImage,
  GenerationJob,
  GenerationProviders,
  HoldingRequest,
  ImageRequest,
  ImageToImage,
  ImageToVideo,
  ProductHolding,
  RemoveBackground,
  TalkingAvatar,
  TalkingRequest,
  TextToImage,
  TextToVideo,
  TryOnRequest,
  Upscale,
  VideoRequest,
  VirtualTryOn,
} from '../provider.js';
import { limitsOf, saveOutput } from './job.js';
import { outputUrls } from './outputs.js';

export interface VendorRunner {
  vendor: Vendor;
  /** Runs a model on an input and answers the vendor's output JSON (ProviderError when the vendor fails). */
  run(model: string, input: object, job: GenerationJob): Promise<unknown>;
}

/** The input of each capability's model at this vendor; `count` is how many outputs one run is asked for. */
export interface VendorShapes {
  image(request: ImageRequest, count: number): Promise<object>;
  video(request: VideoRequest): Promise<object>;
  tryOn(person: string, garment: string, type: 'top' | 'bottom' | 'onePiece'): Promise<object>;
  removeBackground(image: string): Promise<object>;
  upscale(image: string, scale: 2 | 4): Promise<object>;
  extend?(request: ExtendRequest): Promise<object>;
  /** A talking model's input: the presenter's picture and one span of the voice (an M4A file). */
  talking?(image: string, voice: string, prompt: string | undefined): Promise<object>;
  /** A product-holding model's input; `model` names which, where a vendor's models take different fields. */
  holding?(request: HoldingRequest, model: string): Promise<object>;
}

/**
 * What an image-edit model with reference pictures is told to make of a portrait (the first picture) and a product
 * (the second), when the user gave no direction: decision "Product in hand".
 */
export const HOLDING_PROMPT =
  'The person from the first image holds the product from the second image in one hand at chest height, its front and label toward the camera. ' +
  "Keep the person's face, hair, clothes, pose, framing and background exactly as they are, and the product's shape, colours and label exactly as they are.";

type ExtendRequest = { image: string; width: number; height: number; left: number; top: number };

type Remote = Partial<Omit<GenerationProviders, 'replaceBackground'>>;

let serial = 0;
const outputName = (what: string) => `${what}-${++serial}`;

export function remoteProviders(settings: Settings, runner: VendorRunner, shapes: VendorShapes): Remote {
  const { vendor } = runner;
  const modelOf = (capability: RemoteCapability): ProviderChoice | undefined => {
    const choice = settings.generation.choices[capability];
    return choice.vendor === vendor ? choice : undefined;
  };
  const model = (choice: ProviderChoice, pro = false) =>
    'model' in choice ? (pro && choice.proModel) || choice.model : (undefined as never);

  /** Runs once and copies every output of the answer into the work directory. */
  async function runToFiles(modelId: string, input: object, kind: 'image' | 'video', job: GenerationJob): Promise<string[]> {
    const answer = await runner.run(modelId, input, job);
    const urls = outputUrls(answer, `${vendor} ${modelId}`);
    const files: string[] = [];
    for (const url of urls) files.push(await saveOutput(url, job.workDir, outputName(kind), limitsOf(settings, kind), job.signal));
    return files;
  }

  const single = async (modelId: string, input: object, job: GenerationJob) =>
    (await runToFiles(modelId, input, 'image', job))[0] as string;

  const imageMaker = (choice: ProviderChoice) => ({
    name: vendor,
    async generate(request: ImageRequest, job: GenerationJob) {
      const files: string[] = [];
      // A model may make fewer pictures a run than asked (some make one): ask again for the rest.
      for (let round = 0; files.length < request.count && round < request.count; round++) {
        // "Detailed" (v2) runs the capability's second model (decision "Image models named by what they do").
        const modelId = model(choice, request.model === 'v2');
        files.push(...(await runToFiles(modelId, await shapes.image(request, request.count - files.length), 'image', job)));
      }
      if (files.length < request.count) throw new ProviderError(`${vendor} made ${files.length} of ${request.count} pictures`);
      return files.slice(0, request.count);
    },
  });
  const videoMaker = (choice: ProviderChoice) => ({
    name: vendor,
    async generate(request: VideoRequest, job: GenerationJob) {
      return (await runToFiles(model(choice, request.tier === 'pro'), await shapes.video(request), 'video', job))[0] as string;
    },
  });

  const providers: Remote = {};
  const textToImage = modelOf('textToImage');
  if (textToImage) providers.textToImage = imageMaker(textToImage) satisfies TextToImage;
  const imageToImage = modelOf('imageToImage');
  if (imageToImage) providers.imageToImage = imageMaker(imageToImage) satisfies ImageToImage;
  const textToVideo = modelOf('textToVideo');
  if (textToVideo) providers.textToVideo = videoMaker(textToVideo) satisfies TextToVideo;
  const imageToVideo = modelOf('imageToVideo');
  if (imageToVideo) providers.imageToVideo = videoMaker(imageToVideo) satisfies ImageToVideo;
  const tryOn = modelOf('virtualTryOn');
  if (tryOn) {
    providers.virtualTryOn = {
      name: vendor,
      async generate(request: TryOnRequest, job: GenerationJob) {
        const outputs: string[] = [];
        for (let i = 0; i < request.count; i++) {
          // Two pieces are two passes: the top on the person, then the bottom on that picture.
          let person = request.model;
          if (request.garmentType !== 'bottom') {
            const type = request.garmentType === 'onePiece' ? 'onePiece' : 'top';
            person = await single(model(tryOn), await shapes.tryOn(person, request.top as string, type), job);
          }
          if (request.garmentType === 'bottom' || request.garmentType === 'twoPieces') {
            person = await single(model(tryOn), await shapes.tryOn(person, request.bottom as string, 'bottom'), job);
          }
          outputs.push(person);
        }
        return outputs;
      },
    } satisfies VirtualTryOn;
  }
  const cutOut = modelOf('removeBackground');
  if (cutOut) {
    providers.removeBackground = {
      name: vendor,
      cutOut: async (image, job) => single(model(cutOut), await shapes.removeBackground(image), job),
    } satisfies RemoveBackground;
  }
  const upscale = modelOf('upscale');
  if (upscale) {
    providers.upscale = {
      name: vendor,
      upscale: async (request, job) => single(model(upscale), await shapes.upscale(request.image, request.scale), job),
    } satisfies Upscale;
  }
  const extend = modelOf('extendImage');
  if (extend && shapes.extend) {
    const shape = shapes.extend;
    providers.extendImage = {
      name: vendor,
      extend: async (request, job) => asked(await single(model(extend), await shape(request), job), request),
    } satisfies ExtendImage;
  }
  const talking = modelOf('talkingAvatar');
  if (talking && shapes.talking) {
    const shape = shapes.talking;
    providers.talkingAvatar = {
      name: vendor,
      talk: (request, job) => talkInSpans(request, job, model(talking), shape),
    } satisfies TalkingAvatar;
  }
  const holding = modelOf('productHolding');
  if (holding && shapes.holding) {
    const shape = shapes.holding;
    providers.productHolding = {
      name: vendor,
      hold: async (request, job) => single(model(holding), await shape(request, model(holding)), job),
    } satisfies ProductHolding;
  }
  return providers;

  /**
   * The voice cut into spans the model takes (decision "Talking presenters"), each spoken by the model in turn,
   * the clips joined under the whole voice track.
   */
  async function talkInSpans(
    request: TalkingRequest,
    job: GenerationJob,
    modelId: string,
    shape: NonNullable<VendorShapes['talking']>,
  ): Promise<string> {
    const tools = mediaToolsOf(settings);
    const { duration: seconds } = await probe(tools, request.voice);
    const spans = talkingSpans(seconds, request.sentenceEnds, talkingLimit(modelId));
    const clips: string[] = [];
    for (const [i, span] of spans.entries()) {
      job.signal.throwIfAborted();
      const piece = await cutSpeech(request.voice, span, join(job.workDir, `${outputName('voice')}.m4a`), tools);
      const [clip] = await runToFiles(modelId, await shape(request.image, piece, request.prompt), 'video', job);
      if (!clip) throw new ProviderError(`${vendor} made no clip for part ${i + 1} of ${spans.length}`);
      clips.push(clip);
    }
    const out = join(job.workDir, `${outputName('talking')}.mp4`);
    return joinTalkingClips(clips, spans, request.voice, { width: request.width, height: request.height }, out, tools);
  }
}

/**
 * The longest voice a talking model takes in one run, by its published limits: Kling's AI Avatar a minute,
 * OmniHuman 30 s at 1080p (35 s on Replicate), and 30 s for a model this list does not know.
 */
export function talkingLimit(model: string): number {
  return /kling/i.test(model) ? 60 : 30;
}

/**
 * An extension at the canvas the user asked for: a model may answer another size (Bria bounds the area and rounds
 * the sides), and the result must fit the frame it was made for. Covered, never stretched: the picture keeps its
 * proportions and at most a sliver of the rounding is cut off.
 */
async function asked(file: string, canvas: ExtendRequest): Promise<string> {
  const { width, height } = await imageInfo(file);
  if (width === canvas.width && height === canvas.height) return file;
  const out = `${file}-canvas.png`;
  await sharp(file).rotate().resize(canvas.width, canvas.height, { fit: 'cover' }).png().toFile(out);
  return out;
}

/** Where the picture goes on an expansion's canvas, as Bria-class models take it on fal and Replicate. */
export async function canvasPlacement(request: ExtendRequest) {
  const { width, height } = await imageInfo(request.image);
  return {
    canvas_size: [request.width, request.height],
    original_image_size: [width, height],
    original_image_location: [request.left, request.top],
  };
}

/** The closest of a vendor's aspect ratios to width × height. */
export function nearestRatio(width: number, height: number, ratios: readonly string[]): string {
  const target = Math.log(width / height);
  const value = (r: string) => {
    const [w, h] = r.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - target);
  };
  return [...ratios].sort((a, b) => value(a) - value(b))[0] as string;
}
