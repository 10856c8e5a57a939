// GET /video/models: the models of each video mode, from the providers this server has. One provider serves a
// mode, so a mode has one model (its pro tier may run another model of the same vendor, PROVIDER_…_VIDEO_PRO).
// Each names its engine, which chooses the price: the local engine's image to video is priced on its own
// (decision "Image-to-video price").
import type { SkuCode } from '@reelsmith/contract';
import type { AppContext } from '../../context.js';
import { isSandbox } from '../../providers/provider.js';

type Providers = Pick<AppContext, 'providers' | 'settings'>;

export interface VideoModel {
  modelId: string;
  name: string;
  tiers: ('std' | 'pro')[];
  durations: number[];
  engine: 'local' | 'vendor';
}

const TIERS: VideoModel['tiers'] = ['std', 'pro'];
const DURATIONS = [5, 10];

/** A readable name from a vendor's model id: `fal-ai/kling-video/v2/master/text-to-video` → `kling-video v2 master`. */
function modelName(model: string): string {
  const parts = model.split(/[/:]/).slice(1);
  const meaningful = parts.filter((p) => !/^(text|image)-to-video$/.test(p) && !/^[0-9a-f]{32,}$/.test(p));
  return meaningful.join(' ') || model;
}

const capabilityOf = (mode: 'text' | 'image') => (mode === 'text' ? 'textToVideo' : 'imageToVideo');

/**
 * Who makes a mode's videos: this server's own engine, or a vendor model (the sandbox stands in for one, and is
 * priced as one).
 */
export const videoEngine = (ctx: Providers, mode: 'text' | 'image'): VideoModel['engine'] =>
  ctx.providers[capabilityOf(mode)]?.name === 'local' ? 'local' : 'vendor';

/** The SKU an image to video is charged (and its price quoted) under: the engine's, then tier and length. */
export const imageToVideoSku = (ctx: Providers, tier: 'std' | 'pro', duration: number): SkuCode =>
  `${videoEngine(ctx, 'image') === 'local' ? 'img2VideoLocal' : 'img2Video'}_${tier}_${duration}s` as SkuCode;

export function listVideoModels(ctx: Providers, mode: 'text' | 'image'): VideoModel[] {
  const capability = capabilityOf(mode);
  const provider = ctx.providers[capability];
  if (!provider) return [];
  const engine = videoEngine(ctx, mode);
  if (isSandbox(provider)) return [{ modelId: 'sandbox', name: 'Sandbox', tiers: TIERS, durations: DURATIONS, engine }];
  const choice = ctx.settings.generation.choices[capability];
  const modelId = 'model' in choice && choice.vendor === provider.name ? choice.model : provider.name;
  return [{ modelId, name: modelName(modelId), tiers: TIERS, durations: DURATIONS, engine }];
}

/**
 * The image models of text to image or image to image (decision "Image models named by what they do"): "Fast"
 * (v1) wherever a provider serves the mode, "Detailed" (v2) only where a second model of its vendor is set
 * (PROVIDER_…_TO_IMAGE_PRO), so a higher price always buys a different model.
 */
export function listImageModels(ctx: Providers, mode: 'text' | 'image'): ('v1' | 'v2')[] {
  const capability = mode === 'text' ? 'textToImage' : 'imageToImage';
  const provider = ctx.providers[capability];
  if (!provider) return [];
  const choice = ctx.settings.generation.choices[capability];
  const detailed = 'proModel' in choice && Boolean(choice.proModel) && choice.vendor === provider.name;
  return detailed ? ['v1', 'v2'] : ['v1'];
}
