// GET /video/models: the models of each video mode, from the providers this server has. One provider serves a
// mode, so a mode has one model (its pro tier may run another model of the same vendor, PROVIDER_…_VIDEO_PRO).
import type { AppContext } from '../../context.js';

export interface VideoModel {
  modelId: string;
  name: string;
  tiers: ('std' | 'pro')[];
  durations: number[];
}

const TIERS: VideoModel['tiers'] = ['std', 'pro'];
const DURATIONS = [5, 10];

/** A readable name from a vendor's model id: `fal-ai/kling-video/v2/master/text-to-video` → `kling-video v2 master`. */
function modelName(model: string): string {
  const parts = model.split(/[/:]/).slice(1);
  const meaningful = parts.filter((p) => !/^(text|image)-to-video$/.test(p) && !/^[0-9a-f]{32,}$/.test(p));
  return meaningful.join(' ') || model;
}

export function listVideoModels(ctx: Pick<AppContext, 'providers' | 'settings'>, mode: 'text' | 'image'): VideoModel[] {
  const capability = mode === 'text' ? 'textToVideo' : 'imageToVideo';
  const provider = ctx.providers[capability];
  if (!provider) return [];
  if (provider.name === 'sandbox') return [{ modelId: 'sandbox', name: 'Sandbox', tiers: TIERS, durations: DURATIONS }];
  const choice = ctx.settings.generation.choices[capability];
  const modelId = 'model' in choice && choice.vendor === provider.name ? choice.model : provider.name;
  return [{ modelId, name: modelName(modelId), tiers: TIERS, durations: DURATIONS }];
}
