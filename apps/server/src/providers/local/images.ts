// The local engine's image capabilities (design "Generation"): real work on this machine with the media package, no keys,
// offline. Failures that are the input's fault become the user's errors; the rest stay errors ("Generation failed").
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  CanvasError,
  cutOut,
  extendImage,
  imageInfo,
  imageToVideo,
  NoSubjectError,
  replaceBackground,
  stageOfFile,
  UPSCALE_MAX_LONG_SIDE,
  UpscaleInputError,
  upscaleImage,
} from '@reelsmith/media';
import { AppError } from '../../errors.js';
import { mediaToolsOf } from '../../modules/files/workDir.js';
import type { Settings } from '../../settings.js';
import type { ExtendImage, GenerationJob, ImageToVideo, RemoveBackground, ReplaceBackground, Upscale } from '../provider.js';

/** A fresh output path in the job's directory: a provider may be called more than once in one job. */
const outputIn = (job: GenerationJob, name: string, ext: string) => join(job.workDir, `${name}-${randomUUID().slice(0, 8)}.${ext}`);

/** Runs the work, turning the engine's refusals of this input into the user's errors. */
async function asUserError<T>(job: GenerationJob, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    job.signal.throwIfAborted();
    if (error instanceof NoSubjectError) throw new AppError('noSubjectFound', {}, { cause: error });
    if (error instanceof UpscaleInputError) throw new AppError('enhanceTooLarge', { max: UPSCALE_MAX_LONG_SIDE }, { cause: error });
    if (error instanceof CanvasError) throw new AppError('expandCanvasInvalid', {}, { cause: error });
    throw error;
  }
}

/** PNG keeps a picture's transparency (a cut-out enlarged stays a cut-out); anything else is a photo. */
const keepsAlpha = async (image: string) => (await imageInfo(image)).format === 'png';

const removeBackground: RemoveBackground = {
  name: 'local',
  needs: ['cutout'],
  async cutOut(image, job) {
    const out = outputIn(job, 'cutout', 'png');
    await asUserError(job, () => cutOut(image, out));
    return out;
  },
};

const replaceBackgroundProvider: ReplaceBackground = {
  name: 'local',
  needs: ['cutout'],
  async replace({ image, background }, job) {
    // The local engine cannot paint a background from a prompt: it needs a picture.
    if (!background) throw new AppError('backgroundRequired');
    const cutout = await removeBackground.cutOut(image, job);
    job.signal.throwIfAborted();
    const out = outputIn(job, 'background', 'jpg');
    // A preset set says where the product stands on it (a podium's top, a glossy floor that mirrors it).
    await asUserError(job, () => replaceBackground(cutout, background, out, { stage: stageOfFile(background) }));
    return out;
  },
};

const extend: ExtendImage = {
  name: 'local',
  // A textured backdrop is extended around the model's cut-out of the subject.
  needs: ['cutout'],
  async extend({ image, ...canvas }, job) {
    const out = outputIn(job, 'expanded', 'jpg');
    await asUserError(job, () => extendImage(image, canvas, out));
    return out;
  },
};

const upscale: Upscale = {
  name: 'local',
  async upscale({ image, scale }, job) {
    const out = outputIn(job, 'enlarged', (await keepsAlpha(image)) ? 'png' : 'jpg');
    await asUserError(job, () => upscaleImage(image, scale, out));
    return out;
  },
};

/** A camera move over the still (the media package's imageToVideo), with the ffmpeg the settings name. */
const imageToVideoWith = (settings: Settings): ImageToVideo => ({
  name: 'local',
  needs: ['ffmpeg', 'cutout'],
  async generate(request, job) {
    const out = outputIn(job, 'video', 'mp4');
    const seconds = request.duration === 10 ? 10 : 5;
    const tools = mediaToolsOf(settings);
    // The prompt's motion words choose the camera's moves (decision "Prompted camera moves").
    await imageToVideo(
      request.image,
      { seconds, width: request.width, height: request.height, prompt: request.prompt, tools, signal: job.signal },
      out,
    );
    return out;
  },
});

/**
 * The five capabilities the local engine does for real, as one object; the registry uses them where no remote
 * provider is set. Made from the settings only for the ffmpeg the video needs.
 */
export const localProviders = (settings: Settings) => ({
  removeBackground,
  replaceBackground: replaceBackgroundProvider,
  extendImage: extend,
  upscale,
  imageToVideo: imageToVideoWith(settings),
});
