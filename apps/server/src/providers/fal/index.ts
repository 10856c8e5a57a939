// fal.ai models as providers (FLUX-class pictures, Kling/MiniMax-class videos, Kolors-class try-on, BiRefNet-class
// cut-out, ESRGAN-class upscaling, Bria-class expansion, Kling-avatar-class talking presenters, product holding). Pictures and sound
// are sent as data URIs, which fal accepts for every file input.
import type { Settings, VendorAccess } from '../../settings.js';
import { canvasPlacement, HOLDING_PROMPT, nearestRatio, remoteProviders, type VendorShapes } from '../remote/adapters.js';
import { dataUri } from '../remote/job.js';
import { falQueue } from './queue.js';

const VIDEO_RATIOS = ['16:9', '9:16', '1:1'] as const;

const shapes: VendorShapes = {
  async image(request, count) {
    return {
      prompt: request.prompt,
      ...(request.negativePrompt && { negative_prompt: request.negativePrompt }),
      image_size: { width: request.width, height: request.height },
      num_images: count,
      output_format: 'png',
      enable_safety_checker: true,
      ...(request.image && { image_url: await dataUri(request.image), strength: 0.85 }),
    };
  },
  async video(request) {
    return {
      prompt: request.prompt || 'Bring this picture to life with gentle, natural motion',
      ...(request.negativePrompt && { negative_prompt: request.negativePrompt }),
      duration: String(request.duration),
      ...(request.image
        ? { image_url: await dataUri(request.image) }
        : { aspect_ratio: nearestRatio(request.width, request.height, VIDEO_RATIOS) }),
      ...(request.soundEffect && { generate_audio: true }),
    };
  },
  async tryOn(person, garment) {
    return { human_image_url: await dataUri(person), garment_image_url: await dataUri(garment) };
  },
  async removeBackground(image) {
    return { image_url: await dataUri(image), output_format: 'png' };
  },
  async upscale(image, scale) {
    return { image_url: await dataUri(image), scale };
  },
  async extend(request) {
    return { image_url: await dataUri(request.image), ...(await canvasPlacement(request)) };
  },
  // Kling's AI Avatar (`fal-ai/kling-video/ai-avatar/v2/standard|pro`) and OmniHuman (`fal-ai/bytedance/omnihuman/v1.5`)
  // take the same three fields; the prompt is left out when there is none, so each model uses its own default.
  async talking(image, voice, prompt) {
    return { image_url: await dataUri(image), audio_url: await dataUri(voice), ...(prompt && { prompt }) };
  },
  // fal's Product Holding app (`fal-ai/image-apps-v2/product-holding`) takes the two pictures alone, and no direction;
  // an image-edit model with reference pictures (`fal-ai/nano-banana/edit` and its kin) takes them as `image_urls`
  // with an instruction.
  async holding(request, model) {
    const [person, product] = [await dataUri(request.person), await dataUri(request.product)];
    if (/product-holding/.test(model)) return { person_image_url: person, product_image_url: product };
    return { prompt: request.prompt ?? HOLDING_PROMPT, image_urls: [person, product], num_images: 1, output_format: 'png' };
  },
};

export const falProviders = (settings: Settings, access: VendorAccess) =>
  remoteProviders(settings, { vendor: 'fal', run: falQueue(access, settings.generation).run }, shapes);
