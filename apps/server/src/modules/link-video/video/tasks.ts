// The three video tasks of link to video (spec "States and transitions", design "Contract details"): link-video makes `resultNum` previews from
// different scripts; script-update re-renders one preview with its edited script; export-video renders the chosen
// preview in full quality and is the one that is charged (link2V_<length>s, once).
import { randomUUID } from 'node:crypto';
import { type PresenterLayout, type SkuCode, TASKS } from '@reelsmith/contract';
import { CAPTIONS, MUSIC, type RenderQuality, TEMPLATES, VOICES } from '@reelsmith/media';
import type { AppContext } from '../../../context.js';
import type { PreviewRow } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import type { Part } from '../../../parts.js';
import { providerOf } from '../../generation/run.js';
import { presenterFor } from '../../presenters/service.js';
import { getProject, nameAfterProduct } from '../../projects/service.js';
import type { TaskDefinition, TaskJob } from '../../tasks/definition.js';
import { type ComposedVideo, composeVideo } from './compose.js';
import { exportFileName } from './fileName.js';
import { templateOf } from './look.js';
import { type MediaFile, mediaFiles } from './media.js';
import { scriptsFor } from './scripts.js';
import {
  type LinkVideoInput,
  type MadePreview,
  type PreviewSpec,
  previewOf,
  productOf,
  type ScriptUpdateInput,
  type Segment,
  settingsOf,
  storePreviews,
  storeRerender,
  type VideoResult,
  type VideoSettings,
  withLook,
} from './source.js';

type ExportInput = (typeof TASKS)['export-video']['input']['_output'];
type ExportResult = (typeof TASKS)['export-video']['result']['_output'];

/** Rendering several previews on two cores takes minutes, not the default quarter hour's worth of margin. */
const TIMEOUT_MS = 30 * 60_000;

/**
 * What a render of link to video runs on this machine (decision "Start-up checks"): ffmpeg, the caption and card
 * fonts, the SoundFont of the music bed, the cut-out model that frames the pictures, and eSpeak NG unless a speech
 * API reads the script.
 */
const videoNeeds = (ctx: AppContext): readonly Part[] => [
  'ffmpeg',
  'fonts',
  'music',
  'cutout',
  ...(ctx.voice.offline ? (['speech'] as const) : []),
];

/** The settings every render of a link-video task keeps; the top-level voice and captions win over editorConfig's. */
export function videoSettings(input: LinkVideoInput): VideoSettings {
  const config = input.editorConfig ?? TASKS['link-video'].input.shape.editorConfig.unwrap().parse({});
  return {
    videoLength: config.videoLength,
    aspectRatio: config.aspectRatio,
    resultNum: config.resultNum,
    voiceId: input.voiceId ?? config.voiceId,
    captionId: input.captionId ?? config.captionId,
    musicId: config.musicId,
    language: config.language,
    templateId: config.templateId,
    presenterId: config.presenterId,
    presenterLayout: config.presenterLayout,
  };
}

/**
 * A presenter the user may put on camera (theirs or the catalogue's), on a server that can make them talk: refused
 * before anything is charged otherwise (decision "Presenter in link to video").
 */
async function checkPresenterChoice(ctx: AppContext, userId: string, presenterId: string | null | undefined): Promise<void> {
  if (!presenterId) return;
  await presenterFor(ctx, userId, presenterId);
  providerOf(ctx, 'talkingAvatar');
}

/** A voice, music or caption style that is not in the catalogue is refused before anything runs, not failed later. */
export function checkCatalogue(settings: Partial<Pick<VideoSettings, 'voiceId' | 'musicId' | 'captionId'>>) {
  if (settings.voiceId && !VOICES.some((v) => v.voiceId === settings.voiceId)) {
    throw new AppError('validation', { detail: `voiceId: no voice ${settings.voiceId}` });
  }
  if (settings.musicId && !MUSIC.some((m) => m.musicId === settings.musicId)) {
    throw new AppError('validation', { detail: `musicId: no music ${settings.musicId}` });
  }
  if (settings.captionId && !CAPTIONS.some((c) => c.captionId === settings.captionId)) {
    throw new AppError('validation', { detail: `captionId: no caption style ${settings.captionId}` });
  }
}

/**
 * What a render's time grows with, as its task's workload (decision "Progress estimates"): the video's length, how
 * many videos it makes, and a presenter on camera, whose clips a talking-avatar provider makes.
 */
const workloadOf = (seconds: number, videos: number, presenter: boolean) => `${seconds}s×${videos}${presenter ? '+presenter' : ''}`;

/** The seconds of presenter an export of the preview pays for: none without a presenter. */
const presenterSecondsOf = (preview: PreviewRow): number => (preview.presenterId ? (preview.presenterSeconds ?? 0) : 0);

const nonBlank = (segments: Segment[]) => segments.filter((s) => s.segText.trim() !== '');

/** Fresh signed links for the stored videos of a result: a result is read long after it was written. */
async function withFreshLinks<T extends { resKey: string; videoUrl: string }>(ctx: AppContext, videos: T[]): Promise<T[]> {
  return Promise.all(videos.map(async (v) => ({ ...v, videoUrl: await ctx.storage.downloadUrl(v.resKey) })));
}

/**
 * The one render of link to video: a preview (540p) of a link-video task or a script update, or an export (1080p),
 * of a preview's spec with the pictures it names. Only the quality, the label and whether the presenter talks (at
 * export, for the seconds charged) differ between the three.
 */
const render = (
  job: TaskJob<unknown>,
  preview: PreviewSpec,
  media: MediaFile[],
  quality: RenderQuality,
  exported: { aiLabel: boolean; talkSeconds: number } | undefined = undefined,
) =>
  composeVideo(job, {
    settings: settingsOf(preview),
    media,
    segments: preview.segments,
    variant: preview.variant,
    quality,
    product: preview.product,
    templateId: preview.templateId,
    aiLabel: exported?.aiLabel ?? false,
    presenter: preview.presenterId
      ? { presenterId: preview.presenterId, layout: layoutOf(preview), talkSeconds: exported?.talkSeconds }
      : undefined,
  });

/** Where a preview's presenter stands: where the user put them, else where its template does (decision "Presenter layouts"). */
const layoutOf = (preview: Pick<PreviewSpec, 'presenterLayout' | 'templateId'>): PresenterLayout =>
  preview.presenterLayout ?? TEMPLATES[preview.templateId].presenter;

/**
 * A rendered preview as the task's result shows it: with its presenter's seconds on camera, which the export adds,
 * and where they stand.
 */
const previewVideo = (video: ComposedVideo, spec: PreviewSpec, scriptId: string, taskId: string): VideoResult['previewVideos'][number] => ({
  resKey: video.resKey,
  videoUrl: video.videoUrl,
  scriptId,
  taskId,
  templateId: spec.templateId,
  ...(spec.presenterId ? { presenterId: spec.presenterId, presenterSeconds: video.presenterSeconds, presenterLayout: layoutOf(spec) } : {}),
});

/** The pictures of a stored preview, loaded once the work starts. */
async function mediaOf(job: TaskJob<unknown>, preview: PreviewSpec): Promise<MediaFile[]> {
  await job.progress('parsing');
  return mediaFiles(job.ctx, job.userId, preview.fileIds);
}

/** Preview `variant` of a link-video submission with its script, as its row keeps it (decision "Previews as rows"). */
export function previewSpecOf(input: LinkVideoInput, variant: number, segments: PreviewSpec['segments']): PreviewSpec {
  const settings = videoSettings(input);
  return {
    variant,
    segments,
    templateId: templateOf(settings.templateId, input, variant),
    voiceId: settings.voiceId ?? null,
    musicId: settings.musicId ?? null,
    captionId: settings.captionId ?? null,
    aspectRatio: settings.aspectRatio,
    videoLength: settings.videoLength,
    language: settings.language ?? null,
    product: productOf(input),
    fileIds: input.fileIds,
    presenterId: settings.presenterId ?? null,
    presenterLayout: settings.presenterLayout ?? null,
  };
}

export const linkVideoTask: TaskDefinition<LinkVideoInput, VideoResult> = {
  kind: 'link-video',
  needs: videoNeeds,
  input: TASKS['link-video'].input,
  timeoutMs: TIMEOUT_MS,
  async accept(ctx, user, input) {
    await getProject(ctx.db, user.userId, input.projectId);
    await mediaFiles(ctx, user.userId, input.fileIds);
    if (input.diyScript && !input.diyScriptContent?.trim()) throw new AppError('emptyScript');
    checkCatalogue(videoSettings(input));
    await checkPresenterChoice(ctx, user.userId, input.editorConfig?.presenterId);
    // A product whose name was typed on the edit page (a page that gave none) names a project still untitled.
    await nameAfterProduct(ctx.db, user.userId, input.projectId, input.productName);
  },
  workload(input) {
    const settings = videoSettings(input);
    return workloadOf(settings.videoLength, settings.resultNum, Boolean(settings.presenterId));
  },
  async run(job: TaskJob<LinkVideoInput>) {
    const { ctx, input } = job;
    const settings = videoSettings(input);
    await job.progress('parsing');
    const media = await mediaFiles(ctx, job.userId, input.fileIds);
    const scripts = await scriptsFor(input, settings, job);
    const previewVideos: VideoResult['previewVideos'] = [];
    const made: (MadePreview & { id: string })[] = [];
    for (const [variant, script] of scripts.entries()) {
      const spec = previewSpecOf(input, variant, script.segments);
      const video = await render(job, spec, media, 'preview');
      made.push({
        ...spec,
        id: randomUUID(),
        scriptId: script.scriptId,
        resKey: video.resKey,
        fileId: video.fileId,
        presenterSeconds: spec.presenterId ? video.presenterSeconds : null,
      });
      previewVideos.push(previewVideo(video, spec, script.scriptId, job.taskId));
      // Each preview shows as it lands instead of all three at the end.
      await job.partial({ previewVideos, scriptContentList: scripts.slice(0, previewVideos.length) });
    }
    // The previews exist exactly when the task's success does (decision "Previews as rows").
    job.atCompletion((tx) => storePreviews(tx, { taskId: job.taskId, userId: job.userId, projectId: input.projectId }, made));
    return { previewVideos, scriptContentList: scripts };
  },
  async view(result, ctx) {
    return { ...result, previewVideos: await withFreshLinks(ctx, result.previewVideos) };
  },
};

export const scriptUpdateTask: TaskDefinition<ScriptUpdateInput, VideoResult> = {
  kind: 'script-update',
  needs: videoNeeds,
  input: TASKS['script-update'].input,
  timeoutMs: TIMEOUT_MS,
  async accept(ctx, user, input) {
    const preview = await previewOf(ctx.db, user.userId, input.projectId, input.taskId, input.scriptId);
    if (nonBlank(input.scriptContents).length === 0) throw new AppError('emptyScript');
    checkCatalogue(settingsOf(withLook(preview, input)));
    await checkPresenterChoice(ctx, user.userId, input.presenterId);
  },
  async workload(input, ctx, user) {
    const preview = withLook(await previewOf(ctx.db, user.userId, input.projectId, input.taskId, input.scriptId), input);
    return workloadOf(preview.videoLength, 1, preview.presenterId !== null);
  },
  async run(job) {
    const { input } = job;
    const stored = await previewOf(job.ctx.db, job.userId, input.projectId, input.taskId, input.scriptId);
    // The edited script with the choices the update makes; the rest as the preview was last rendered.
    const preview = { ...withLook(stored, input), segments: nonBlank(input.scriptContents) };
    const video = await render(job, preview, await mediaOf(job, preview), 'preview');
    const { templateId, voiceId, musicId, captionId, presenterId, presenterLayout } = preview;
    job.atCompletion((tx) =>
      storeRerender(tx, stored.id, job.taskId, {
        segments: preview.segments,
        templateId,
        voiceId,
        musicId,
        captionId,
        presenterId,
        presenterLayout,
        presenterSeconds: presenterId ? video.presenterSeconds : null,
        resKey: video.resKey,
        fileId: video.fileId,
      }),
    );
    return {
      previewVideos: [previewVideo(video, preview, input.scriptId, job.taskId)],
      scriptContentList: [{ scriptId: input.scriptId, segments: preview.segments }],
    };
  },
  async view(result, ctx) {
    return { ...result, previewVideos: await withFreshLinks(ctx, result.previewVideos) };
  },
};

export const exportVideoTask: TaskDefinition<ExportInput, ExportResult> = {
  kind: 'export-video',
  needs: videoNeeds,
  input: TASKS['export-video'].input,
  timeoutMs: TIMEOUT_MS,
  async price(input, ctx, user) {
    const preview = await previewOf(ctx.db, user.userId, input.projectId, input.taskId, input.scriptId);
    const exported = { sku: `link2V_${preview.videoLength}s` as SkuCode, count: 1 };
    // The presenter's lip-synced clips are made now, and charged now, by the second they are on screen.
    const seconds = presenterSecondsOf(preview);
    return seconds > 0 ? { ...exported, also: [{ sku: 'avatarVideo', count: seconds }] } : exported;
  },
  async accept(ctx, user, input) {
    const preview = await previewOf(ctx.db, user.userId, input.projectId, input.taskId, input.scriptId);
    await checkPresenterChoice(ctx, user.userId, preview.presenterId);
  },
  async workload(input, ctx, user) {
    const preview = await previewOf(ctx.db, user.userId, input.projectId, input.taskId, input.scriptId);
    return workloadOf(preview.videoLength, 1, preview.presenterId !== null);
  },
  async run(job) {
    const { ctx, input } = job;
    const preview = await previewOf(ctx.db, job.userId, input.projectId, input.taskId, input.scriptId);
    const media = await mediaOf(job, preview);
    // Pictures made by the generation tools are AI-generated: the label is on unless the user turned it off. A
    // presenter is always labelled (decision "Presenter in link to video").
    const aiLabel = preview.presenterId !== null || (input.aiLabel ?? media.some((file) => file.source === 'generated'));
    const video = await render(job, preview, media, 'export', { aiLabel, talkSeconds: presenterSecondsOf(preview) });
    const project = await getProject(ctx.db, job.userId, input.projectId);
    const exported = {
      resKey: video.resKey,
      videoUrl: video.videoUrl,
      taskId: job.taskId,
      templateId: preview.templateId,
      fileName: exportFileName(project.name.trim() || preview.product.productName, preview.variant + 1, preview.videoLength),
      seconds: preview.videoLength,
      aspectRatio: preview.aspectRatio,
      previewNumber: preview.variant + 1,
    };
    return { exportVideos: [{ ...exported, downloadUrl: await ctx.storage.downloadUrl(video.resKey, { filename: exported.fileName }) }] };
  },
  async view(result, ctx) {
    const videos = await withFreshLinks(ctx, result.exportVideos);
    // The saved copy takes the export's file name, where the player's link shows the video in place.
    return {
      exportVideos: await Promise.all(
        videos.map(async (v) =>
          v.fileName ? { ...v, downloadUrl: await ctx.storage.downloadUrl(v.resKey, { filename: v.fileName }) } : v,
        ),
      ),
    };
  },
};
