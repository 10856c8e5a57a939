// Replicate models as providers (FLUX-class pictures, Kling/MiniMax-class videos, IDM-VTON-class try-on,
// background removal, Real-ESRGAN-class upscaling, Bria-class expansion, OmniHuman-class talking presenters, product
// holding by an image-edit model with reference pictures).
// Pictures and sound are sent as data URIs, which Replicate accepts for file inputs.
import type { Settings, VendorAccess } from '../../settings.js';
import { canvasPlacement, HOLDING_PROMPT, nearestRatio, remoteProviders, type VendorShapes } from '../remote/adapters.js';
import { dataUri } from '../remote/job.js';
import { replicateRun } from './predictions.js';

const IMAGE_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'] as const;
const VIDEO_RATIOS = ['16:9', '9:16', '1:1'] as const;
const TRY_ON_CATEGORIES = { top: 'upper_body', bottom: 'lower_body', onePiece: 'dresses' } as const;

const shapes: VendorShapes = {
  async image(request, count) {
    return {
      prompt: request.prompt,
      ...(request.negativePrompt && { negative_prompt: request.negativePrompt }),
      aspect_ratio: nearestRatio(request.width, request.height, IMAGE_RATIOS),
      num_outputs: count,
      output_format: 'png',
      ...(request.image && { image: await dataUri(request.image), prompt_strength: 0.85 }),
    };
  },
  async video(request) {
    return {
      prompt: request.prompt || 'Bring this picture to life with gentle, natural motion',
      ...(request.negativePrompt && { negative_prompt: request.negativePrompt }),
      duration: request.duration,
      ...(request.image
        ? { start_image: await dataUri(request.image) }
        : { aspect_ratio: nearestRatio(request.width, request.height, VIDEO_RATIOS) }),
    };
  },
  async tryOn(person, garment, type) {
    return { human_img: await dataUri(person), garm_img: await dataUri(garment), category: TRY_ON_CATEGORIES[type], garment_des: type };
  },
  async removeBackground(image) {
    return { image: await dataUri(image) };
  },
  async upscale(image, scale) {
    return { image: await dataUri(image), scale };
  },
  // Bria's expansion (`bria/expand-image`) places the picture on a canvas: sizes and the top-left corner as [x, y]
  // pairs. No aspect ratio is sent, since the model prefers it over the exact placement, and no prompt: the tool
  // has none, and the model describes the picture itself when it is left out.
  async extend(request) {
    return { image: await dataUri(request.image), ...(await canvasPlacement(request)) };
  },
  // OmniHuman 1.5 (`bytedance/omni-human-1.5`): `image` and `audio` files, an optional `prompt`.
  async talking(image, voice, prompt) {
    return { image: await dataUri(image), audio: await dataUri(voice), ...(prompt && { prompt }) };
  },
  // Nano Banana (`google/nano-banana`): the pictures as `image_input`, the portrait first, with an instruction.
  async holding(request) {
    return {
      prompt: request.prompt ?? HOLDING_PROMPT,
      image_input: [await dataUri(request.person), await dataUri(request.product)],
      output_format: 'png',
    };
  },
};

export const replicateProviders = (settings: Settings, access: VendorAccess) =>
  remoteProviders(settings, { vendor: 'replicate', run: replicateRun(access, settings.generation) }, shapes);
