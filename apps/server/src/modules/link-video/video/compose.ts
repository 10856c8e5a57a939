// One video of link to video, from a script and the product's media to a stored file (issue 5 pipeline): speak
// the script segment by segment (with the speech provider when one is configured), lay music under the voice, time
// the captions to the speech, plan the scenes along the voice, render, and store the result as a generated asset of
// the project.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TemplateId } from '@reelsmith/contract';
import {
  buildAss,
  buildCardsAss,
  CAPTIONS,
  type CaptionAvoid,
  cardFace,
  cardFontsDir,
  defaultVoice,
  endCardArea,
  fitVoice,
  frameSize,
  MUSIC,
  mergeAss,
  mixAudio,
  musicBeats,
  musicBed,
  openingCardEnd,
  planTimeline,
  type RenderQuality,
  renderVideo,
  sceneSubject,
  shortName,
  speakScript,
  spokenPrice,
  TEMPLATES,
  type TimelineMedia,
} from '@reelsmith/media';
import { ingest } from '../../files/ingest.js';
import { addFile } from '../../files/records.js';
import { cacheDirOf, mediaToolsOf, withWorkDir } from '../../files/workDir.js';
import type { TaskJob } from '../../tasks/definition.js';
import { adFacts, brandOf } from './look.js';
import { localCopy, type MediaFile } from './media.js';
import { languageOf } from './scripts.js';
import type { LinkVideoInput, Segment, VideoSettings } from './source.js';

/**
 * The tag an AI-labelled export carries in its metadata, beside the label in the picture: the words TikTok Shop
 * asks sellers to disclose (decision "AI-generated label").
 */
const AI_METADATA = { comment: 'AI-generated content', ai_generated: 'true' };

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
}

export interface ComposedVideo {
  fileId: string;
  resKey: string;
  videoUrl: string;
}

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
      async (file): Promise<TimelineMedia> =>
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
  const template = TEMPLATES[request.templateId];
  const facts = adFacts(product, segments, language, callToAction);
  return withWorkDir(ctx.settings, async (dir) => {
    await job.progress('understanding');
    // The voice fits the video: the call to action is heard whole before the end (decision "Speech fits the slot").
    const spoken = await speakScript(segments, {
      voiceId: settings.voiceId ?? defaultVoice(language).voiceId,
      outDir: dir,
      tools,
      synthesize: ctx.voice.synthesizer(signal),
    });
    const voice = await fitVoice(spoken, settings.videoLength, { outDir: dir, tools });
    signal.throwIfAborted();

    await job.progress('initialFrames');
    const musicId = settings.musicId ?? defaultMusicId();
    const timeline = planTimeline({
      scenes: media,
      segments: voice.segments.map((s) => ({ segId: s.segId, seconds: s.seconds })),
      videoLength: settings.videoLength,
      aspectRatio: settings.aspectRatio,
      template,
      hasOffer: facts.offer !== undefined,
      // The scenes cut on the music's beats (issue 16): the bed starts on its first beat with the video.
      beats: musicBeats(musicId, settings.videoLength),
    });
    const music = join(dir, 'music.wav');
    await musicBed(musicId, timeline.seconds, music, cacheDirOf(ctx.settings.dataDir, 'music'), tools);
    const audio = join(dir, 'audio.wav');
    await mixAudio({ voice: voice.file, music, seconds: timeline.seconds, outFile: audio, tools });
    signal.throwIfAborted();

    await job.progress('animating');
    const { width, height } = frameSize(settings.aspectRatio, quality === 'export' ? 1080 : 540);
    const ass = join(dir, 'captions.ass');
    const stills = cacheDirOf(ctx.settings.dataDir, 'stills');
    // Captions keep off the product in every picture scene while it is on screen (decision "Word-timed captions"),
    // and off the end card, which leaves them the band below it.
    const avoid: CaptionAvoid[] = [];
    for (const scene of timeline.scenes) {
      const span = { start: scene.start, end: scene.start + scene.seconds };
      if (scene.role === 'end') {
        avoid.push({ ...span, box: endCardArea(width, height) });
        continue;
      }
      const subject = await sceneSubject(scene, settings.aspectRatio, { width, height }, stills);
      if (subject)
        avoid.push({ ...span, box: { x: subject.left, y: subject.top, w: subject.right - subject.left, h: subject.bottom - subject.top } });
    }
    // A question hook's card shows the opening line itself: its words are not captioned under it a second time.
    const cardUntil = openingCardEnd(timeline, template) ?? 0;
    const captions = buildAss({
      // Each word on the voice's clock, so the highlight follows the voice.
      segments: voice.segments
        .map((s) => ({ text: s.segText, start: Math.max(s.start, cardUntil), end: s.end, words: s.words.filter((w) => w.end > cardUntil) }))
        .filter((s) => s.words.length > 0),
      styleId: settings.captionId ?? (CAPTIONS[0] as { captionId: string }).captionId,
      width,
      height,
      language,
      // The name as the script says it, the brand and the price stand out in the key-word style.
      keyWords: [
        shortName(product.productName, language),
        product.productBrand,
        facts.offer && spokenPrice(facts.offer.price, facts.offer.currency, language),
      ].filter((word): word is string => Boolean(word)),
      avoid,
    });
    // The hook's title keeps off the hook picture's subject (a model's face, the product).
    const hook = timeline.scenes.find((scene) => scene.role === 'hook');
    const hookSubject = hook && (await sceneSubject(hook, settings.aspectRatio, { width, height }, stills));
    const cards = buildCardsAss({ timeline, template, facts, brand, width, height, language, aiLabel: request.aiLabel, hookSubject });
    await writeFile(ass, mergeAss(captions, cards));

    await job.progress('rendering');
    const outFile = join(dir, 'video.mp4');
    await renderVideo(timeline, {
      audio,
      ass,
      fontsDir: cardFontsDir(cardFace(template, brand)),
      quality,
      outFile,
      cacheDir: cacheDirOf(ctx.settings.dataDir, 'stills'),
      brand,
      metadata: request.aiLabel ? AI_METADATA : undefined,
      signal,
      tools,
    });

    await job.progress('polishing');
    const fileId = randomUUID();
    const stored = await ingest(ctx, { userId: job.userId, fileId, path: outFile, signal });
    const label = quality === 'export' ? 'export' : `preview ${request.variant + 1}`;
    const row = await addFile(
      ctx,
      {
        userId: job.userId,
        fileId,
        name: `${product.productName.slice(0, 200)} – ${label}.mp4`,
        source: 'generated',
        projectId: job.projectId,
      },
      stored,
    );
    return { fileId: row.id, resKey: stored.resKey, videoUrl: await ctx.storage.downloadUrl(stored.resKey) };
  });
}
