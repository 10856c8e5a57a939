// The Avatar tool (decision "The Avatar tool"): a presenter's portrait and a script become a talking video, the
// voice ours (any speech engine), the lips the talking-presenter provider's, captions, label and loudness the
// media engine's (composeTalking). Priced per second of speech counted from the script at submit, refunded on failure.
import { avatarSeconds, TASKS } from '@reelsmith/contract';
import {
  CAPTIONS,
  checkPortrait,
  composeTalking,
  defaultVoice,
  detectLanguage,
  type PortraitProblem,
  TalkTooLongError,
} from '@reelsmith/media';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { cacheDirOf, mediaToolsOf, withWorkDir } from '../files/workDir.js';
import { checkCatalogue } from '../link-video/video/tasks.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { checkPicture, fetchPicture, type PictureRef } from './pictures.js';
import { providerOf, runGeneration, signedOutputs } from './run.js';

type Input = (typeof TASKS)['avatar-video']['input']['_output'];
type Videos = { videos: { resKey: string; url: string; posterUrl?: string }[] };

/** A vendor's presenter takes minutes a run, and a long script is several runs. */
const AVATAR_TIMEOUT_MS = 60 * 60_000;
/**
 * The voice may run this much over the seconds the script was charged for (a slow voice, many numbers) before the
 * video is refused and refunded: past it the vendor's bill would outgrow the price.
 */
const OVERRUN = 1.5;
const NAME_SCRIPT = 60;

/** Each reason a picture cannot be a presenter, as the message that says so (decision "Presenter portraits"). */
const PORTRAIT_ERRORS = {
  noFace: 'portraitNoFace',
  severalFaces: 'portraitSeveralFaces',
  faceTooSmall: 'portraitFaceTooSmall',
  notFacingCamera: 'portraitNotFacingCamera',
} as const satisfies Record<PortraitProblem, string>;

/** Refuses a picture that is not one clear face looking at the camera: a lip-sync model would fail on it, or worse. */
async function checkPresenter(file: string): Promise<void> {
  const { problem } = await checkPortrait(file);
  if (problem) throw new AppError(PORTRAIT_ERRORS[problem]);
}

/**
 * A stored portrait is looked at before the charge; a linked one can only be fetched by the task (through the
 * SSRF-safe fetcher), which looks at it before anything is spoken and is refunded if it is refused.
 */
async function checkStoredPresenter(ctx: AppContext, userId: string, presenter: PictureRef): Promise<void> {
  if (presenter.resKey === undefined) return;
  await withWorkDir(ctx.settings, async (dir) => checkPresenter((await fetchPicture(ctx, userId, presenter, dir, 'presenter')).path));
}

export const avatarVideoTask: TaskDefinition<Input, Videos> = {
  kind: 'avatar-video',
  needs: (ctx) => ['ffmpeg', ...(ctx.providers.talkingAvatar?.needs ?? [])],
  input: TASKS['avatar-video'].input,
  timeoutMs: AVATAR_TIMEOUT_MS,
  price: (input) => ({ sku: 'avatarVideo', count: avatarSeconds(input.script) }),
  async accept(ctx, user, input) {
    if (!input.presenter.resKey && !input.presenter.imageUrl) throw new AppError('sourceImageRequired');
    await checkPicture(ctx, user.userId, input.presenter);
    checkCatalogue(input);
    providerOf(ctx, 'talkingAvatar');
    await checkStoredPresenter(ctx, user.userId, input.presenter);
  },
  async run(job) {
    const { input, ctx, signal } = job;
    const provider = providerOf(ctx, 'talkingAvatar');
    const language = input.language ?? detectLanguage(input.script);
    const outputs = await runGeneration(job, {
      async prepare(dir) {
        const presenter = await fetchPicture(ctx, job.userId, input.presenter, dir, 'presenter');
        await checkPresenter(presenter.path);
        return presenter;
      },
      async generate(presenter, generation) {
        try {
          const talking = await composeTalking(
            {
              script: input.script,
              language,
              voiceId: input.voiceId ?? defaultVoice(language).voiceId,
              synthesize: ctx.voice.synthesizer(signal),
              voiceEngine: ctx.voice.engine,
              musicId: input.musicId,
              captionId: input.captionId ?? (CAPTIONS[0] as { captionId: string }).captionId,
              aspectRatio: input.ratio,
              quality: 'export',
              maxSeconds: avatarSeconds(input.script) * OVERRUN,
              talk: (request) => provider.talk({ ...request, image: presenter.path, prompt: input.prompt }, generation),
            },
            {
              workDir: generation.workDir,
              cacheDir: cacheDirOf(ctx.settings.dataDir),
              tools: mediaToolsOf(ctx.settings),
              signal,
              progress: (stage) => (stage === 'talking' ? generation.progress('animating') : undefined),
            },
          );
          return [talking.file];
        } catch (error) {
          if (error instanceof TalkTooLongError) throw new AppError('avatarScriptTooLong', {}, { cause: error });
          throw error;
        }
      },
      name: (index) => `Avatar – ${input.script.slice(0, NAME_SCRIPT)} ${index}.mp4`,
    });
    return { videos: await signedOutputs(ctx, outputs, 'video') };
  },
  view: async (result, ctx) => ({ videos: await signedOutputs(ctx, result.videos, 'video') }),
};
