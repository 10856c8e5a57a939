// Sandbox text → image and image → image: real PNGs of the asked size and count, drawn here and marked SANDBOX.
import { join } from 'node:path';
import { findFaces } from '@reelsmith/media';
import sharp, { type OverlayOptions } from 'sharp';
import type {
  GenerationJob,
  HoldingRequest,
  ImageRequest,
  ImageToImage,
  ProductHolding,
  TextToImage,
  TryOnRequest,
  VirtualTryOn,
} from '../provider.js';
import { sandboxBackground, sandboxOverlay } from './marks.js';

/** The base picture of output `index`: the source picture filling the frame, or shapes chosen by the prompt. */
const basePicture = (request: ImageRequest, index: number) =>
  request.image
    ? sharp(request.image).rotate().resize(request.width, request.height, { fit: 'cover' })
    : sharp(sandboxBackground(request.width, request.height, `${request.prompt}\n${index}`));

async function generate(request: ImageRequest, job: GenerationJob): Promise<string[]> {
  const outputs: string[] = [];
  for (let index = 0; index < request.count; index++) {
    job.signal.throwIfAborted();
    const label = request.count > 1 ? `${request.prompt} (${index + 1}/${request.count})` : request.prompt;
    const overlay = await sandboxOverlay(request.width, request.height, label);
    const out = join(job.workDir, `sandbox-${index + 1}.png`);
    // The source is tinted a little per output, so the outputs of one request differ as real ones would.
    const base = await basePicture(request, index)
      .modulate({ hue: index * 40 })
      .png()
      .toBuffer();
    await sharp(base)
      .composite([{ input: overlay }])
      .png()
      .toFile(out);
    outputs.push(out);
  }
  return outputs;
}

export const sandboxTextToImage: TextToImage = { name: 'sandbox', generate };
export const sandboxImageToImage: ImageToImage = { name: 'sandbox', generate };

/**
 * Try-on stand-in: the garment pictures laid over the person where they would be worn, marked SANDBOX. Below the face
 * when there is one: a real try-on keeps the face, and a presenter wearing the product must still pass the face check
 * (decision "Product in hand").
 */
export const sandboxTryOn: VirtualTryOn = {
  name: 'sandbox',
  async generate(request: TryOnRequest, job: GenerationJob) {
    const person = sharp(request.model).rotate().resize(1024, 1024, { fit: 'inside' });
    const { data: base, info } = await person.png().toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const [face] = [...(await findFaces(request.model))].sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h);
    // The part of the picture the garments go in, as shares of its height: below the chin, else all of it.
    const from = face ? Math.min(0.75, face.box.y + face.box.h * 1.08) : 0;
    const span = 1 - from;
    const garments: { file: string; centre: number }[] = [];
    if (request.garmentType === 'bottom') garments.push({ file: request.bottom as string, centre: 0.68 });
    else if (request.garmentType === 'onePiece') garments.push({ file: request.top as string, centre: 0.5 });
    else {
      garments.push({ file: request.top as string, centre: 0.36 });
      if (request.garmentType === 'twoPieces') garments.push({ file: request.bottom as string, centre: 0.7 });
    }
    const outputs: string[] = [];
    for (let index = 0; index < request.count; index++) {
      job.signal.throwIfAborted();
      const layers: OverlayOptions[] = [];
      for (const garment of garments) {
        const room = face ? height * span * (garments.length > 1 ? 0.5 : 0.9) : Number.POSITIVE_INFINITY;
        const size = Math.round(Math.min(Math.min(width, height) * (0.5 + index * 0.05), room));
        const { data, info: g } = await sharp(garment.file)
          .rotate()
          .resize(size, size, { fit: 'inside' })
          .png()
          .toBuffer({ resolveWithObject: true });
        const top = Math.max(0, Math.min(height - g.height, Math.round(height * (from + span * garment.centre) - g.height / 2)));
        layers.push({ input: data, left: Math.round((width - g.width) / 2), top });
      }
      const markAt = face ? from + span * 0.4 : undefined;
      layers.push({ input: await sandboxOverlay(width, height, `virtual try-on: ${request.garmentType}`, markAt) });
      const out = join(job.workDir, `sandbox-try-on-${index + 1}.png`);
      await sharp(base).composite(layers).png().toFile(out);
      outputs.push(out);
    }
    return outputs;
  },
};

/**
 * Product-holding stand-in: the product's picture in a white card held up below the presenter's face, the face left
 * clear (the still must pass the presenter's face check, as a vendor's does), marked SANDBOX over the chest. Nobody's
 * hands move: it shows where a vendor's still would go.
 */
export const sandboxHolding: ProductHolding = {
  name: 'sandbox',
  async hold(request: HoldingRequest, job: GenerationJob) {
    job.signal.throwIfAborted();
    const { data: base, info } = await sharp(request.person)
      .rotate()
      .resize(1024, 1024, { fit: 'inside' })
      .png()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const [face] = [...(await findFaces(request.person))].sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h);
    // Below the chin (with room for it), else the lower part of the picture.
    const below = Math.min(0.75, face ? face.box.y + face.box.h * 1.08 : 0.6);
    const side = Math.round(Math.min(width * 0.32, height * (1 - below) * 0.8));
    const pad = Math.round(side * 0.06);
    const product = await sharp(request.product)
      .rotate()
      .resize(side - 2 * pad, side - 2 * pad, { fit: 'contain', background: '#ffffff' })
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: '#ffffff' })
      .png()
      .toBuffer();
    const out = join(job.workDir, 'sandbox-holding.png');
    await sharp(base)
      .composite([
        { input: product, left: Math.round(width * 0.66 - side / 2), top: Math.round(height * below) },
        { input: await sandboxOverlay(width, height, request.prompt || 'product in hand', below + (1 - below) * 0.4) },
      ])
      .png()
      .toFile(out);
    return out;
  },
};
