// The capabilities link to video asks a provider for (design "Generation"): the registry picks the local engine or a remote
// API for each from the settings, and the tasks do not know which one they got.
import type { ProgressStage } from '@reelsmith/contract';
import type { ScriptBrief, ScriptVariant, Synthesizer } from '@reelsmith/media';
import type { Part } from '../parts.js';

/** Whether a provider is the sandbox's marked stand-in, not a real model (decision "Stand-ins are free"). */
export const isSandbox = (provider: { name: string } | null | undefined): boolean => provider?.name === 'sandbox';

export interface ScriptWriter {
  /** `brief.count` distinct scripts (fewer when the writer has no more distinct ones), sized to the video length. */
  write(brief: ScriptBrief, signal?: AbortSignal): Promise<ScriptVariant[]>;
}

export interface Voice {
  /** Names the engine and its setup, so speech made by one engine (a cached sample) is never served for another. */
  engine: string;
  /** The built-in offline engine (eSpeak NG): the editor says so, and names the setting for natural voices. */
  offline: boolean;
  /** Speaks one line with a catalogue voice into a 16-bit PCM WAV; stops when `signal` aborts. */
  synthesizer(signal?: AbortSignal): Synthesizer;
}

// The generation capabilities (design "Generation"): each takes files on this machine and writes its outputs into the
// job's work directory, answering their paths; the task stores them. A remote provider downloads what the vendor made
// into the work directory at once, so every output ends in our storage whoever made it.

/** What every generation call gets besides its request. */
export interface GenerationJob {
  /** A directory of this attempt's own, removed after the task stores the outputs. */
  workDir: string;
  /** Aborts when the task is cancelled, runs out of time or its worker lost the lease: stop and throw. */
  signal: AbortSignal;
  /** Reports the stage reached (spec "States and transitions"'s six, in order). */
  progress(stage: ProgressStage): Promise<void>;
}

/** Pixel sizes are decided by the task from the ratio and quality; providers honour them as closely as they can. */
export interface ImageRequest {
  prompt: string;
  negativePrompt?: string | undefined;
  width: number;
  height: number;
  count: number;
  model: 'v1' | 'v2';
  quality: 'standard' | 'high';
  /** Image to image: the source picture's path. */
  image?: string | undefined;
}

export interface VideoRequest {
  prompt?: string | undefined;
  negativePrompt?: string | undefined;
  /** Seconds: 5 or 10. */
  duration: number;
  width: number;
  height: number;
  tier: 'std' | 'pro';
  model?: string | undefined;
  soundEffect: boolean;
  /** Image to video: the still to animate. */
  image?: string | undefined;
}

export interface TryOnRequest {
  garmentType: 'top' | 'bottom' | 'onePiece' | 'twoPieces';
  /** The person's picture. */
  model: string;
  top?: string | undefined;
  bottom?: string | undefined;
  count: number;
}

/** A provider of one capability; `name` is what /health reports (local, sandbox, fal, replicate, openai). */
interface Named {
  name: string;
  /** The parts of this machine the provider runs (the local engine's; a remote vendor's needs none here). */
  needs?: readonly Part[];
}

export interface TextToImage extends Named {
  generate(request: ImageRequest, job: GenerationJob): Promise<string[]>;
}
export interface ImageToImage extends Named {
  generate(request: ImageRequest & { image: string }, job: GenerationJob): Promise<string[]>;
}
export interface TextToVideo extends Named {
  generate(request: VideoRequest, job: GenerationJob): Promise<string>;
}
export interface ImageToVideo extends Named {
  generate(request: VideoRequest & { image: string }, job: GenerationJob): Promise<string>;
}
export interface VirtualTryOn extends Named {
  generate(request: TryOnRequest, job: GenerationJob): Promise<string[]>;
}
/** A PNG with an alpha channel: the subject kept, the background transparent. */
export interface RemoveBackground extends Named {
  cutOut(image: string, job: GenerationJob): Promise<string>;
}
/** The subject composited onto a background picture (or one described by a prompt, where the provider can). */
export interface ReplaceBackground extends Named {
  replace(request: { image: string; background?: string | undefined; prompt?: string | undefined }, job: GenerationJob): Promise<string>;
}
/** The picture placed at (left, top) on a larger canvas of width × height, the rest filled to match. */
export interface ExtendImage extends Named {
  extend(request: { image: string; width: number; height: number; left: number; top: number }, job: GenerationJob): Promise<string>;
}
export interface Upscale extends Named {
  upscale(request: { image: string; scale: 2 | 4 }, job: GenerationJob): Promise<string>;
}

/** A presenter's portrait made to speak a voice track we made (decision "Talking presenters"). */
export interface TalkingRequest {
  /** The presenter's picture. */
  image: string;
  /** The voice track, any length: a provider splits it where its model needs. */
  voice: string;
  /** Where its sentences end, in seconds: where a long track may be cut. */
  sentenceEnds: readonly number[];
  /** A hint for the model's acting (gestures, mood); the vendor's default without it. */
  prompt?: string | undefined;
  /** The clip's frame. */
  width: number;
  height: number;
}
/** A lip-synced video of the presenter saying the voice track, as long as it, with the track as its sound. */
export interface TalkingAvatar extends Named {
  talk(request: TalkingRequest, job: GenerationJob): Promise<string>;
}

/** A presenter holding the product (decision "Product in hand"): their portrait and a picture of the product. */
export interface HoldingRequest {
  /** The presenter's portrait. */
  person: string;
  /** The product's picture: a packshot or a photo, its background left as it is. */
  product: string;
  /** Direction for the shot (which hand, the label toward the camera); the model's own default without it. */
  prompt?: string | undefined;
}
/** A still of the presenter holding or showing the product, their face, pose and framing kept. */
export interface ProductHolding extends Named {
  hold(request: HoldingRequest, job: GenerationJob): Promise<string>;
}

/** The provider of each generation capability; null where none is configured (production answers a clear error). */
export interface GenerationProviders {
  textToImage: TextToImage | null;
  imageToImage: ImageToImage | null;
  textToVideo: TextToVideo | null;
  imageToVideo: ImageToVideo | null;
  virtualTryOn: VirtualTryOn | null;
  removeBackground: RemoveBackground | null;
  replaceBackground: ReplaceBackground | null;
  extendImage: ExtendImage | null;
  upscale: Upscale | null;
  talkingAvatar: TalkingAvatar | null;
  productHolding: ProductHolding | null;
}
export type Capability = keyof GenerationProviders;
