// The three video tasks of link to video (spec "States and transitions", design "Contract details"): link-video makes `resultNum` previews from
// different scripts; script-update re-renders one preview with its edited script; export-video renders the chosen
// preview in full quality and is the one that is charged (link2V_<length>s, once).
import { type SkuCode, TASKS } from '@reelsmith/contract';
import { CAPTIONS, MUSIC, VOICES } from '@reelsmith/media';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../errors.js';
import type { Part } from '../../../parts.js';
import { getProject, nameAfterProduct } from '../../projects/service.js';
import type { TaskDefinition, TaskJob } from '../../tasks/definition.js';
import { composeVideo } from './compose.js';
import { exportFileName } from './fileName.js';
import { templateOf } from './look.js';
import { mediaFiles } from './media.js';
import { scriptsFor } from './scripts.js';
import {
  type LinkVideoInput,
  lookOf,
  type ScriptUpdateInput,
  type Segment,
  scriptOf,
  type VideoResult,
  type VideoSettings,
  type VideoSource,
  videoSource,
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
  };
}

/** A voice, music or caption style that is not in the catalogue is refused before anything runs, not failed later. */
function checkCatalogue(settings: VideoSettings) {
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

/** The settings a preview renders with: the link-video task's, with what script updates changed for its script. */
const settingsOf = (source: VideoSource, scriptId: string, update: Partial<VideoSettings> = {}): VideoSettings => ({
  ...videoSettings(source.root.input),
  ...source.looks.get(scriptId),
  ...update,
});

const nonBlank = (segments: Segment[]) => segments.filter((s) => s.segText.trim() !== '');

/** Fresh signed links for the stored videos of a result: a result is read long after it was written. */
async function withFreshLinks<T extends { resKey: string; videoUrl: string }>(ctx: AppContext, videos: T[]): Promise<T[]> {
  return Promise.all(videos.map(async (v) => ({ ...v, videoUrl: await ctx.storage.downloadUrl(v.resKey) })));
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
    // A product whose name was typed on the edit page (a page that gave none) names a project still untitled.
    await nameAfterProduct(ctx.db, user.userId, input.projectId, input.productName);
  },
  async run(job: TaskJob<LinkVideoInput>) {
    const { ctx, input } = job;
    const settings = videoSettings(input);
    await job.progress('parsing');
    const media = await mediaFiles(ctx, job.userId, input.fileIds);
    const scripts = await scriptsFor(input, settings, job);
    const previewVideos: VideoResult['previewVideos'] = [];
    for (const [variant, script] of scripts.entries()) {
      const templateId = templateOf(settings.templateId, input, variant);
      const video = await composeVideo(job, {
        settings,
        media,
        segments: script.segments,
        variant,
        quality: 'preview',
        product: input,
        templateId,
        aiLabel: false,
      });
      previewVideos.push({ resKey: video.resKey, videoUrl: video.videoUrl, scriptId: script.scriptId, taskId: job.taskId, templateId });
      // Each preview shows as it lands instead of all three at the end.
      await job.partial({ previewVideos, scriptContentList: scripts.slice(0, previewVideos.length) });
    }
    return { previewVideos, scriptContentList: scripts };
  },
  async view(result, ctx) {
    return { ...result, previewVideos: await withFreshLinks(ctx, result.previewVideos) };
  },
};

/** Which of the link-video task's previews a script is, so its re-render keeps that preview's look. */
const variantOf = (result: VideoResult, scriptId: string) =>
  Math.max(
    0,
    result.scriptContentList.findIndex((s) => s.scriptId === scriptId),
  );

export const scriptUpdateTask: TaskDefinition<ScriptUpdateInput, VideoResult> = {
  kind: 'script-update',
  needs: videoNeeds,
  input: TASKS['script-update'].input,
  timeoutMs: TIMEOUT_MS,
  async accept(ctx, user, input) {
    const source = await videoSource(ctx.db, user.userId, input.projectId, input.taskId);
    scriptOf(source, input.scriptId);
    if (nonBlank(input.scriptContents).length === 0) throw new AppError('emptyScript');
    checkCatalogue(settingsOf(source, input.scriptId, lookOf(input)));
  },
  async run(job) {
    const { ctx, input } = job;
    const source = await videoSource(ctx.db, job.userId, input.projectId, input.taskId);
    scriptOf(source, input.scriptId);
    const settings = settingsOf(source, input.scriptId, lookOf(input));
    await job.progress('parsing');
    const media = await mediaFiles(ctx, job.userId, source.root.input.fileIds);
    const segments = nonBlank(input.scriptContents);
    const variant = variantOf(source.root.result as VideoResult, input.scriptId);
    const templateId = templateOf(settings.templateId, source.root.input, variant);
    const video = await composeVideo(job, {
      settings,
      media,
      segments,
      variant,
      quality: 'preview',
      product: source.root.input,
      templateId,
      aiLabel: false,
    });
    return {
      previewVideos: [{ resKey: video.resKey, videoUrl: video.videoUrl, scriptId: input.scriptId, taskId: job.taskId, templateId }],
      scriptContentList: [{ scriptId: input.scriptId, segments }],
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
    const source = await videoSource(ctx.db, user.userId, input.projectId, input.taskId);
    return { sku: `link2V_${videoSettings(source.root.input).videoLength}s` as SkuCode, count: 1 };
  },
  async accept(ctx, user, input) {
    scriptOf(await videoSource(ctx.db, user.userId, input.projectId, input.taskId), input.scriptId);
  },
  async run(job) {
    const { ctx, input } = job;
    const source = await videoSource(ctx.db, job.userId, input.projectId, input.taskId);
    const settings = settingsOf(source, input.scriptId);
    await job.progress('parsing');
    const media = await mediaFiles(ctx, job.userId, source.root.input.fileIds);
    const variant = variantOf(source.root.result as VideoResult, input.scriptId);
    const templateId = templateOf(settings.templateId, source.root.input, variant);
    const video = await composeVideo(job, {
      settings,
      media,
      segments: scriptOf(source, input.scriptId),
      variant,
      quality: 'export',
      product: source.root.input,
      templateId,
      // Pictures made by the generation tools are AI-generated: the label is on unless the user turned it off.
      aiLabel: input.aiLabel ?? media.some((file) => file.source === 'generated'),
    });
    const project = await getProject(ctx.db, job.userId, input.projectId);
    const exported = {
      resKey: video.resKey,
      videoUrl: video.videoUrl,
      taskId: job.taskId,
      templateId,
      fileName: exportFileName(project.name.trim() || source.root.input.productName, variant + 1, settings.videoLength),
      seconds: settings.videoLength,
      aspectRatio: settings.aspectRatio,
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
