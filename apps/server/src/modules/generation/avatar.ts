// The Avatar tool (decision "The Avatar tool"): a presenter's portrait and a script become a talking video, the
// voice ours (any speech engine), the lips the talking-presenter provider's, captions, label and loudness the
// media engine's (composeTalking). Priced per second of speech counted from the script at submit, refunded on failure.
import { avatarSeconds, TASKS } from '@reelsmith/contract';
import { CAPTIONS, composeTalking, defaultVoice, detectLanguage, TalkTooLongError } from '@reelsmith/media';
import { AppError } from '../../errors.js';
import { cacheDirOf, mediaToolsOf } from '../files/workDir.js';
import { checkCatalogue } from '../link-video/video/tasks.js';
import { checkPresenter, checkStoredPortrait, presenterFor, presenterPicture, TALK_OVERRUN } from '../presenters/service.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { checkPicture, fetchPicture } from './pictures.js';
import { providerOf, runGeneration, signedOutputs, standInOf } from './run.js';

type Input = (typeof TASKS)['avatar-video']['input']['_output'];
type Videos = { videos: { resKey: string; url: string; posterUrl?: string }[]; standIn?: true };

/** A vendor's presenter takes minutes a run, and a long script is several runs. */
const AVATAR_TIMEOUT_MS = 60 * 60_000;
const NAME_SCRIPT = 60;

export const avatarVideoTask: TaskDefinition<Input, Videos> = {
  kind: 'avatar-video',
  needs: (ctx) => ['ffmpeg', ...(ctx.providers.talkingAvatar?.needs ?? [])],
  input: TASKS['avatar-video'].input,
  timeoutMs: AVATAR_TIMEOUT_MS,
  price: (input) => ({ sku: 'avatarVideo', count: avatarSeconds(input.script) }),
  // Its time grows with the seconds spoken: grouped by ten (decision "Progress estimates").
  workload: (input) => `${Math.ceil(avatarSeconds(input.script) / 10) * 10}s`,
  async accept(ctx, user, input) {
    const { presenterId, ...picture } = input.presenter;
    if (presenterId === undefined && !picture.resKey && !picture.imageUrl) throw new AppError('sourceImageRequired');
    // Another user's presenter answers as one that does not exist, whatever else the request holds.
    if (presenterId !== undefined) await presenterFor(ctx, user.userId, presenterId);
    if (presenterId !== undefined && (picture.resKey || picture.imageUrl)) throw new AppError('imageRefInvalid');
    // A saved presenter was consented to when it was saved (the catalogue's by the operator); a picture needs it now.
    if (presenterId === undefined && !input.consent) throw new AppError('presenterConsentRequired');
    if (presenterId === undefined) await checkPicture(ctx, user.userId, picture);
    checkCatalogue(input);
    providerOf(ctx, 'talkingAvatar');
    // A stored portrait is looked at before the charge; a linked one only the task may fetch, and looks at.
    if (presenterId === undefined) await checkStoredPortrait(ctx, user.userId, picture);
  },
  async run(job) {
    const { input, ctx, signal } = job;
    const provider = providerOf(ctx, 'talkingAvatar');
    const language = input.language ?? detectLanguage(input.script);
    const { presenterId, ...picture } = input.presenter;
    const saved = presenterId === undefined ? undefined : await presenterFor(ctx, job.userId, presenterId);
    const outputs = await runGeneration(job, {
      async prepare(dir) {
        const presenter = saved ? await presenterPicture(ctx, saved, dir) : await fetchPicture(ctx, job.userId, picture, dir, 'presenter');
        await checkPresenter(presenter.path);
        return presenter;
      },
      async generate(presenter, generation) {
        try {
          const talking = await composeTalking(
            {
              script: input.script,
              language,
              voiceId: input.voiceId ?? saved?.voiceId ?? defaultVoice(language).voiceId,
              synthesize: ctx.voice.synthesizer(signal),
              voiceEngine: ctx.voice.engine,
              musicId: input.musicId,
              captionId: input.captionId ?? (CAPTIONS[0] as { captionId: string }).captionId,
              aspectRatio: input.ratio,
              quality: 'export',
              maxSeconds: avatarSeconds(input.script) * TALK_OVERRUN,
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
      madeBy: provider,
    });
    return { videos: await signedOutputs(ctx, outputs, 'video'), ...standInOf(provider) };
  },
  view: async (result, ctx) => ({ ...result, videos: await signedOutputs(ctx, result.videos, 'video') }),
};
