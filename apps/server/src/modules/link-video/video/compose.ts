// One video of link to video, from a script and the product's media to a stored file: gather what the ad is made
// of (local copies of the pictures, the brand kit, the cards' facts, the voice and music chosen), let the media
// engine make it (composeAd, decision "The ad engine"), and store the result as a generated asset of the project.
import { randomUUID } from 'node:crypto';
import type { PresenterLayout, ProgressStage, TemplateId } from '@reelsmith/contract';
import {
  type AdStage,
  CAPTIONS,
  composeAd,
  defaultVoice,
  MUSIC,
  type ProductMedia,
  type RenderQuality,
  TalkTooLongError,
  VOICES,
} from '@reelsmith/media';
import { AppError } from '../../../errors.js';
import { isSandbox } from '../../../providers/provider.js';
import { ingest } from '../../files/ingest.js';
import { addFile } from '../../files/records.js';
import { cacheDirOf, mediaToolsOf, withWorkDir } from '../../files/workDir.js';
import { providerOf, taskError } from '../../generation/run.js';
import { presenterFor, TALK_OVERRUN } from '../../presenters/service.js';
import type { TaskJob } from '../../tasks/definition.js';
import { adFacts, brandOf } from './look.js';
import { localCopy, type MediaFile } from './media.js';
import { languageOf } from './scripts.js';
import type { LinkVideoInput, Segment, VideoSettings } from './source.js';

/** The progress a user sees for each step of the ad (spec "States and transitions" progress messages). */
const STAGE: Record<AdStage, ProgressStage> = {
  voice: 'understanding',
  timeline: 'initialFrames',
  captions: 'animating',
  render: 'rendering',
};

export interface ComposeRequest {
  settings: VideoSettings;
  media: MediaFile[];
  segments: Segment[];
  /** Which preview this is: previews of one script differ by the picture that opens them. */
  variant: number;
  quality: RenderQuality;
  /** The product as the link-video task was given it: its name names the stored file; all of it feeds the cards. */
  product: Pick<LinkVideoInput, 'productName' | 'productDescription' | 'productBrand' | 'productOffer' | 'productFacts'>;
  templateId: TemplateId;
  /** Whether the video carries the "AI-generated" label and metadata tag (decision "AI-generated label"). */
  aiLabel: boolean;
  /**
   * The presenter on camera (decision "Presenter in link to video"); `talkSeconds`, at export, the seconds paid for
   * their lip-synced clips (held portrait in previews).
   */
  presenter?: { presenterId: string; layout: PresenterLayout; talkSeconds?: number | undefined } | undefined;
}

export interface ComposedVideo {
  fileId: string;
  resKey: string;
  videoUrl: string;
  /** The whole seconds the presenter is on screen (0 without one): what an export's clips cost. */
  presenterSeconds: number;
}

/** A share of a second the count of seconds on camera forgives, so 5.0004 s on screen is 5 s paid for. */
const SECOND_SLACK = 0.01;

/** The music a project gets before the user picks: the first recommended track. */
const defaultMusicId = () => (MUSIC.find((m) => m.recommended) ?? (MUSIC[0] as { musicId: string })).musicId;

const rotate = <T>(items: T[], by: number): T[] => [...items.slice(by % items.length), ...items.slice(0, by % items.length)];

export async function composeVideo(job: TaskJob<unknown>, request: ComposeRequest): Promise<ComposedVideo> {
  const { ctx, signal } = job;
  const { settings, segments, quality } = request;
  const tools = mediaToolsOf(ctx.settings);
  const { product } = request;
  const language = languageOf(
    { productName: product.productName, productDescription: segments.map((s) => s.segText).join('\n'), productFacts: product.productFacts },
    settings,
  );
  const media = await Promise.all(
    rotate(request.media, request.variant).map(
      async (file): Promise<ProductMedia> =>
        file.type === 'video'
          ? { kind: 'video', file: await localCopy(ctx, file.resKey, file.format), seconds: file.duration ?? 0 }
          : // The picture's size chooses its move (a pan along a wide photo, a push-in otherwise): see planTimeline.
            {
              kind: 'image',
              file: await localCopy(ctx, file.resKey, file.format),
              width: file.width ?? undefined,
              height: file.height ?? undefined,
            },
    ),
  );
  const { brand, callToAction } = await brandOf(ctx, job.userId, language, (resKey) => localCopy(ctx, resKey, null));
  const presenter = request.presenter && (await presenterFor(ctx, job.userId, request.presenter.presenterId));
  // The presenter's own voice when it speaks the ad's language and the user chose none.
  const presenterVoice = VOICES.find((voice) => voice.voiceId === presenter?.voiceId && voice.language === language)?.voiceId;
  return withWorkDir(ctx.settings, async (dir) => {
    const talkSeconds = request.presenter?.talkSeconds;
    const talking = talkSeconds === undefined ? undefined : providerOf(ctx, 'talkingAvatar');
    // When the presenter cannot be made, that is what the user is told, whatever else stopped with it.
    let refused: unknown;
    const ad = await composeAd(
      {
        scenes: media,
        segments,
        templateId: request.templateId,
        brand,
        facts: adFacts(product, segments, language, callToAction),
        aspectRatio: settings.aspectRatio,
        videoLength: settings.videoLength,
        quality,
        language,
        voiceId: settings.voiceId ?? presenterVoice ?? defaultVoice(language).voiceId,
        synthesize: ctx.voice.synthesizer(signal),
        voiceEngine: ctx.voice.engine,
        musicId: settings.musicId ?? defaultMusicId(),
        captionId: settings.captionId ?? (CAPTIONS[0] as { captionId: string }).captionId,
        aiLabel: request.aiLabel,
        presenter: presenter && {
          picture: await localCopy(ctx, presenter.resKey, null),
          // A vendor's refusal reads as the generation tools' do.
          talk:
            talking &&
            ((talk) =>
              talking.talk(talk, { workDir: dir, signal, progress: (stage) => job.progress(stage) }).catch((error: unknown) => {
                refused ??= taskError(error, signal);
                throw refused;
              })),
          maxSeconds: talkSeconds === undefined ? undefined : talkSeconds * TALK_OVERRUN,
          layout: request.presenter?.layout,
        },
      },
      { workDir: dir, cacheDir: cacheDirOf(ctx.settings.dataDir), tools, signal, progress: (stage) => job.progress(STAGE[stage]) },
    ).catch((error: unknown) => {
      throw error instanceof TalkTooLongError ? new AppError('presenterTalksTooLong', {}, { cause: error }) : (refused ?? error);
    });

    await job.progress('polishing');
    const fileId = randomUUID();
    const stored = await ingest(ctx, { userId: job.userId, fileId, path: ad.file, signal });
    const label = quality === 'export' ? 'export' : `preview ${request.variant + 1}`;
    const row = await addFile(
      ctx,
      {
        userId: job.userId,
        fileId,
        name: `${product.productName.slice(0, 200)} – ${label}.mp4`,
        source: 'generated',
        projectId: job.projectId,
        // The presenter's clips are the sandbox's talking stand-in: the video is in part a stand-in's work.
        standIn: isSandbox(talking),
      },
      stored,
    );
    return {
      fileId: row.id,
      resKey: stored.resKey,
      videoUrl: await ctx.storage.downloadUrl(stored.resKey),
      presenterSeconds: Math.ceil(ad.presenterSeconds - SECOND_SLACK),
    };
  });
}
