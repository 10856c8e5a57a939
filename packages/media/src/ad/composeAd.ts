/**
 * An ad from its plan, in one call (decision "The ad engine"): speak the script and fit it to the video (decision
 * "Speech fits the slot"), plan the scenes along the voice on the music's beats, lay the music under the voice, time
 * the captions word by word off the products and the cards, draw the template's cards, render. The caller gathers
 * what the ad is made of and stores the file; the subject finding, captions, fonts, ASS documents and cache folders
 * stay here.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAss, type CaptionAvoid } from '../captions/ass.js';
import { mergeAss } from '../captions/assDocument.js';
import { musicBeats } from '../music/beats.js';
import { musicBed } from '../music/bed.js';
import { mixAudio } from '../music/mix.js';
import { cutSpeech, type SpeechSpan, type TalkRequest, TalkTooLongError } from '../render/clip/talking.js';
import type { FramedSubject } from '../render/framing.js';
import { type LightMap, sceneLightMap } from '../render/lightMap.js';
import { runAll } from '../render/pool.js';
import { type RenderQuality, renderVideo, shortSideOf } from '../render/render.js';
import { kindOf, sceneKeepClear, sceneSubject } from '../render/scene/kinds.js';
import { framePortrait } from '../render/scene/presenter.js';
import type { PresenterLayout } from '../render/scene/types.js';
import {
  type AspectRatio,
  frameSize,
  type ProductMedia,
  planTimeline,
  type Timeline,
  type TimelineMedia,
  type VideoLength,
} from '../render/timeline.js';
import type { Language } from '../script/language.js';
import { shortName } from '../script/name.js';
import { spokenPrice } from '../script/price.js';
import type { ScriptSegment } from '../script/split.js';
import { type FittedVoice, fitVoice } from '../speech/fit.js';
import { LOCAL_VOICE_SOUND } from '../speech/polish.js';
import type { Synthesizer } from '../speech/synthesize.js';
import { speakScript } from '../speech/track.js';
import { type AdFacts, type BrandLook, buildCards, cardFace, endCardArea, openingCardEnd } from '../templates/cards.js';
import { TEMPLATES, type Template, type TemplateId } from '../templates/catalogue.js';
import { cardFontsDir } from '../templates/fontsDir.js';
import { locateTools, type MediaTools } from '../tools.js';

/**
 * The tag an AI-labelled ad carries in its metadata, beside the label in the picture: the words TikTok Shop asks
 * sellers to disclose (decision "AI-generated label").
 */
export const AI_METADATA = { comment: 'AI-generated content', ai_generated: 'true' };

/** What an ad is made of: everything it shows and says, and how it looks. */
export interface AdPlan {
  /** The product's pictures and clips as local files, the first opening the ad. */
  scenes: ProductMedia[];
  /** The script, a segment a scene. */
  segments: ScriptSegment[];
  templateId: TemplateId;
  brand: BrandLook;
  /** What the cards say: name, brand, price, features, opening line, call to action. */
  facts: AdFacts;
  aspectRatio: AspectRatio;
  videoLength: VideoLength;
  quality: RenderQuality;
  language: Language;
  voiceId: string;
  /** Speaks one line: the local engine unless the server has a speech provider. */
  synthesize?: Synthesizer | undefined;
  /**
   * Names `synthesize`'s engine and setup (the server's `Voice.engine`), so lines it spoke are kept and read back
   * for the next ad of the same words; without a name, a provider's lines are not kept. The local engine's are.
   */
  voiceEngine?: string | undefined;
  musicId: string;
  captionId: string;
  /** Whether the ad carries the "AI-generated" label and metadata tag (decision "AI-generated label"). */
  aiLabel: boolean;
  /** The presenter on camera, when the ad has one (decision "Presenter in link to video"). */
  presenter?: AdPresenter | undefined;
}

/** A presenter in an ad: their portrait and, at export, what makes them talk. */
export interface AdPresenter {
  /** The portrait, any size: it is framed to the ad's shape about the face. */
  picture: string;
  /**
   * Makes the presenter say one stretch of the voice: `image` is the framed portrait, and the clip answered is at
   * least as long as the stretch. Absent (previews), the portrait is held while the voice plays.
   */
  talk?: ((request: TalkRequest & { image: string }) => Promise<string>) | undefined;
  /** The most seconds on camera `talk` may be asked for (what was charged): more fails before it is called. */
  maxSeconds?: number | undefined;
  /** Where they stand (decision "Presenter layouts"): the template's layout when absent. */
  layout?: PresenterLayout | undefined;
}

/** The steps an ad goes through, for a progress display. */
export type AdStage = 'voice' | 'timeline' | 'captions' | 'render';

export interface ComposeOptions {
  /** Where the voice, the mix, the captions and the video are written; the caller removes it. */
  workDir: string;
  /** Where what is learnt of pictures and the music loops are kept between ads (its `stills` and `music` folders). */
  cacheDir: string;
  tools?: MediaTools | undefined;
  signal?: AbortSignal | undefined;
  progress?: ((stage: AdStage) => Promise<void> | void) | undefined;
}

export interface ComposedAd {
  /** The video, in `workDir`. */
  file: string;
  width: number;
  height: number;
  seconds: number;
  /** The timeline the ad was rendered from: each scene's source file, role, start and length. */
  timeline: Timeline;
  /** The seconds the presenter is on camera (presenterSpans), 0 without one: what a lip-synced export costs. */
  presenterSeconds: number;
}

/**
 * Learns ahead of time what composeAd will ask of the picture `file` (its subject and, where a frame of `aspectRatio`
 * stands it on a set, its cut-out), into `cacheDir` where composeAd keeps it: link analysis calls it for the pictures
 * it imported, while the user reads the product page, so the first preview does not wait for the subject model
 * (decision "The ad engine"). Other shapes and sizes reuse the subject; only a set's cut-out depends on the shape.
 */
export async function learnPicture(file: string, cacheDir: string, aspectRatio: AspectRatio = '9:16'): Promise<void> {
  const scene = { media: { kind: 'image', file }, role: 'feature', start: 0, seconds: 0, motion: 'none' } as const;
  await sceneSubject(scene, aspectRatio, frameSize(aspectRatio, shortSideOf('preview')), join(cacheDir, 'stills'));
}

/** Renders the ad its plan describes into `workDir/video.mp4`. */
export async function composeAd(plan: AdPlan, options: ComposeOptions): Promise<ComposedAd> {
  const { workDir, cacheDir, signal, tools = locateTools() } = options;
  const progress = async (stage: AdStage) => options.progress?.(stage);
  const template = TEMPLATES[plan.templateId];
  const stills = join(cacheDir, 'stills');

  // The photos' stills are made while the voice is spoken, one at a time beside it: the cards read them and the
  // render shows them (decision "Readable cards").
  const ahead = makeAhead(plan, template, stills);
  ahead.catch(() => undefined);

  await progress('voice');
  const engine = plan.voiceEngine ?? (plan.synthesize ? undefined : `local-${LOCAL_VOICE_SOUND}`);
  // The voice fits the video: the call to action is heard whole before the end (decision "Speech fits the slot").
  const spoken = await speakScript(plan.segments, {
    voiceId: plan.voiceId,
    outDir: workDir,
    tools,
    synthesize: plan.synthesize,
    cache: engine === undefined ? undefined : { dir: join(cacheDir, 'speech'), engine },
  });
  const voice = await fitVoice(spoken, plan.videoLength, { outDir: workDir, tools });
  signal?.throwIfAborted();

  await progress('timeline');
  const frame = frameSize(plan.aspectRatio, shortSideOf(plan.quality));
  const portrait = plan.presenter && (await framePortrait(plan.presenter.picture, frame, join(cacheDir, 'presenters')));
  const planned = planTimeline({
    scenes: plan.scenes,
    segments: voice.segments.map((s) => ({ segId: s.segId, seconds: s.seconds })),
    videoLength: plan.videoLength,
    aspectRatio: plan.aspectRatio,
    template,
    hasOffer: plan.facts.offer !== undefined,
    // The scenes cut on the music's beats (decision "SoundFont music"): the bed starts on its first beat with the video.
    beats: musicBeats(plan.musicId, plan.videoLength),
    presenter: portrait,
    presenterLayout: plan.presenter?.layout,
  });
  // At export the presenter's scenes become clips of them saying their lines; in previews the portrait is held.
  const talk = plan.presenter?.talk;
  const timeline =
    portrait && talk
      ? await withTakes(planned, voice, { image: portrait.file, talk, maxSeconds: plan.presenter?.maxSeconds }, frame, workDir, tools)
      : planned;
  // The soundtrack is mixed while the captions are set and the pieces encode: only the audio's own encode, the
  // render's last step, waits for it (decision "The ad engine"). Awaited below whatever happens to the render.
  const audio = mixSoundtrack(plan.musicId, voice.file, timeline.seconds, workDir, cacheDir, tools);
  audio.catch(() => undefined);
  try {
    return await drawAd(plan, options, { template, stills, voice, timeline, audio });
  } finally {
    await Promise.all([audio.catch(() => undefined), ahead.catch(() => undefined)]);
  }
}

/**
 * What each distinct picture of the plan can make before its scene is planned (a scene kind's `ahead`), one after
 * another. A failure here is left to the render, which makes the same files and says what went wrong.
 */
async function makeAhead(plan: AdPlan, template: Template, cacheDir: string): Promise<void> {
  const frame = frameSize(plan.aspectRatio, shortSideOf(plan.quality));
  const seen = new Set<string>();
  for (const media of plan.scenes) {
    if (seen.has(media.file)) continue;
    seen.add(media.file);
    const kind = kindOf(media);
    await kind
      .ahead?.(media as never, { frame, aspectRatio: plan.aspectRatio, look: template, brand: plan.brand, cacheDir })
      ?.catch(() => undefined);
  }
}

/**
 * The voice with the music bed ducking under it (the voice alone without one), mixed to the delivery loudness, at
 * `workDir/audio.wav`.
 */
export async function mixSoundtrack(
  musicId: string | undefined,
  voice: string,
  seconds: number,
  workDir: string,
  cacheDir: string,
  tools: MediaTools,
): Promise<string> {
  const music = musicId ? join(workDir, 'music.wav') : undefined;
  if (musicId && music) await musicBed(musicId, seconds, music, join(cacheDir, 'music'), tools);
  return mixAudio({ voice, music, seconds, outFile: join(workDir, 'audio.wav'), tools });
}

/** Whether a scene shows the presenter, full-frame or beside the product. */
const showsPresenter = (media: TimelineMedia) => media.kind === 'presenter' || media.kind === 'presented';

/** The seconds of the voice's clock where a scene is on screen: from its first frame (its fade-in) to its last. */
function onScreen(timeline: Timeline, i: number): SpeechSpan {
  const scene = timeline.scenes[i] as Timeline['scenes'][number];
  return { start: Math.max(0, scene.start - (i === 0 ? 0 : timeline.transition)), end: scene.start + scene.seconds };
}

/**
 * Where the presenter is on screen, on the voice's clock: each run of scenes showing them, from its first scene's
 * first frame (its fade-in, under the scene before) to its last scene's last (under the next one's fade-in). Each
 * run is one take of them talking.
 */
export function presenterSpans(timeline: Timeline): SpeechSpan[] {
  const spans: SpeechSpan[] = [];
  let running = false;
  timeline.scenes.forEach((scene, i) => {
    const shows = showsPresenter(scene.media);
    if (shows && running) (spans.at(-1) as SpeechSpan).end = onScreen(timeline, i).end;
    else if (shows) spans.push(onScreen(timeline, i));
    running = shows;
  });
  return spans;
}

/**
 * The timeline with each presenter scene showing the presenter saying its stretch of the voice: the stretches are
 * cut from the voice track and said at once (a vendor takes minutes a clip), each take starting on its first
 * scene's first frame and running on through the scenes after it. More seconds than `maxSeconds` fail before
 * anything is asked.
 */
async function withTakes(
  timeline: Timeline,
  voice: FittedVoice,
  presenter: { image: string; talk: NonNullable<AdPresenter['talk']>; maxSeconds: number | undefined },
  frame: { width: number; height: number },
  workDir: string,
  tools: MediaTools,
): Promise<Timeline> {
  const spans = presenterSpans(timeline);
  const seconds = spans.reduce((sum, span) => sum + span.end - span.start, 0);
  if (presenter.maxSeconds !== undefined && seconds > presenter.maxSeconds)
    throw new TalkTooLongError(`the presenter is on camera ${seconds.toFixed(1)} s, over the ${presenter.maxSeconds} s asked for`);
  const takes = await Promise.all(
    spans.map(async (span, n) => {
      const said = await cutSpeech(voice.file, span, join(workDir, `presenter-${n}.m4a`), tools);
      const sentenceEnds = voice.segments.map((s) => s.end - span.start).filter((end) => end > 0 && end < span.end - span.start);
      return presenter.talk({ voice: said, sentenceEnds, ...frame, image: presenter.image });
    }),
  );
  /** The take a scene first shown at `start` plays, and how far into it the scene's first frame falls. */
  const takeAt = (start: number) => {
    const n = spans.findLastIndex((span) => span.start <= start + 1e-6);
    return { clip: takes[n] as string, from: Math.max(0, start - (spans[n] as SpeechSpan).start) };
  };
  return {
    ...timeline,
    scenes: timeline.scenes.map((scene, i) => {
      const { media } = scene;
      if (media.kind === 'presenter') return { ...scene, media: { ...media, ...takeAt(onScreen(timeline, i).start) } };
      if (media.kind === 'presented')
        return { ...scene, media: { ...media, presenter: { ...media.presenter, ...takeAt(onScreen(timeline, i).start) } } };
      return scene;
    }),
  };
}

/** The captions, the cards and the render of an ad whose voice and timeline are made. */
async function drawAd(
  plan: AdPlan,
  options: ComposeOptions,
  made: { template: Template; stills: string; voice: FittedVoice; timeline: Timeline; audio: Promise<string> },
): Promise<ComposedAd> {
  const { workDir, signal, tools = locateTools() } = options;
  const progress = async (stage: AdStage) => options.progress?.(stage);
  const { template, stills, voice, timeline, audio } = made;
  signal?.throwIfAborted();

  await progress('captions');
  const { width, height } = frameSize(plan.aspectRatio, shortSideOf(plan.quality));
  // Captions keep off the product in every picture scene while it is on screen (decision "Word-timed captions"),
  // and off the end card, which leaves them the band below it.
  const avoid: CaptionAvoid[] = [];
  const subjects = new Map<Timeline['scenes'][number], FramedSubject | undefined>();
  for (const scene of timeline.scenes) {
    const span = { start: scene.start, end: scene.start + scene.seconds };
    if (scene.role === 'end') {
      avoid.push({ ...span, box: endCardArea(width, height), firm: true });
      continue;
    }
    // A presenter's inset, or their face beside the product, stays clear of them whatever else they cover.
    const clear = sceneKeepClear(scene, { width, height });
    if (clear) avoid.push({ ...span, box: clear, firm: true });
    const subject = await sceneSubject(scene, plan.aspectRatio, { width, height }, stills);
    subjects.set(scene, subject);
    if (subject)
      avoid.push({ ...span, box: { x: subject.left, y: subject.top, w: subject.right - subject.left, h: subject.bottom - subject.top } });
  }
  const { facts } = plan;
  // The hook's title and the offer card keep off their pictures' subjects (a model's face, the product).
  const subjectOf = (role: Timeline['scenes'][number]['role']) => {
    const scene = timeline.scenes.find((s) => s.role === role);
    return scene && subjects.get(scene);
  };
  // Each card's backing is chosen from what its scene's still shows behind it (decision "Readable cards"), read
  // from the still a preview shows: the map is in shares of the frame, the same at any size, and an export then
  // finds its previews' stills made (its own are made by the render beside its encoders).
  const read = new Map<string, Promise<LightMap>>();
  const lightMaps: (LightMap | undefined)[] = [];
  const frame = frameSize(plan.aspectRatio, shortSideOf('preview'));
  await runAll(
    timeline.scenes.map((scene, i) => ({
      weight: 0,
      run: async () => {
        const context = { aspectRatio: plan.aspectRatio, frame, look: template, brand: plan.brand, cacheDir: stills, tools };
        lightMaps[i] = await sceneLightMap(scene, context, read);
      },
    })),
    2,
  );
  const cards = buildCards({
    timeline,
    template,
    facts,
    brand: plan.brand,
    width,
    height,
    language: plan.language,
    aiLabel: plan.aiLabel,
    hookSubject: subjectOf('hook'),
    offerSubject: subjectOf('offer'),
    lightMaps,
  });
  // A question hook's card shows the opening line itself: its words are not captioned under it a second time.
  const cardUntil = openingCardEnd(timeline, template) ?? 0;
  const captions = buildAss({
    // Each word on the voice's clock, so the highlight follows the voice.
    segments: voice.segments
      .map((s) => ({ text: s.segText, start: Math.max(s.start, cardUntil), end: s.end, words: s.words.filter((w) => w.end > cardUntil) }))
      .filter((s) => s.words.length > 0),
    styleId: plan.captionId,
    width,
    height,
    language: plan.language,
    // The name as the script says it, the brand and the price stand out in the key-word style.
    keyWords: [
      shortName(facts.name, plan.language),
      facts.brand,
      facts.offer && spokenPrice(facts.offer.price, facts.offer.currency, plan.language),
    ].filter((word): word is string => Boolean(word)),
    // And off the cards while they show.
    avoid: [...avoid, ...cards.areas],
  });
  const ass = join(workDir, 'captions.ass');
  await writeFile(ass, mergeAss(captions, cards.ass));

  await progress('render');
  const file = join(workDir, 'video.mp4');
  const rendered = await renderVideo(timeline, {
    audio,
    ass,
    fontsDir: cardFontsDir(cardFace(template, plan.brand)),
    quality: plan.quality,
    outFile: file,
    cacheDir: stills,
    brand: plan.brand,
    metadata: plan.aiLabel ? AI_METADATA : undefined,
    signal,
    tools,
  });
  const presenterSeconds = presenterSpans(timeline).reduce((sum, span) => sum + span.end - span.start, 0);
  return { file, width: rendered.width, height: rendered.height, seconds: rendered.seconds, timeline, presenterSeconds };
}
