/**
 * A talking-presenter video from its plan, in one call (decision "The Avatar tool"): speak the script a sentence a
 * line, have the presenter say the voice track (the caller's `talk`: a vendor's lip-sync model, or the sandbox's
 * stand-in), then frame the clip to the shape, caption it word by word, label it "AI-generated" and lay the voice
 * (with music under it, when chosen) at the delivery loudness. The caller gathers the picture and stores the file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AvoidBox, buildAss } from '../captions/ass.js';
import { mergeAss } from '../captions/assDocument.js';
import { aroundFace, findFaces } from '../imaging/faces.js';
import { probe } from '../probe.js';
import { type TalkRequest, TalkTooLongError } from '../render/clip/talking.js';
import { BT709, filterValue } from '../render/filters.js';
import { trimHeaderDurations } from '../render/movieDuration.js';
import { type RenderQuality, shortSideOf } from '../render/render.js';
import { type AspectRatio, frameSize } from '../render/timeline.js';
import { runTool } from '../run.js';
import type { Language } from '../script/language.js';
import { numberSegments, sentences } from '../script/split.js';
import { LOCAL_VOICE_SOUND } from '../speech/polish.js';
import type { Synthesizer } from '../speech/synthesize.js';
import { speakScript } from '../speech/track.js';
import { buildLabelAss } from '../templates/cards.js';
import { TEMPLATES } from '../templates/catalogue.js';
import { cardFontsDir } from '../templates/fontsDir.js';
import { locateTools, type MediaTools } from '../tools.js';
import { AI_METADATA, mixSoundtrack } from './composeAd.js';

export interface TalkingPlan {
  /** What the presenter says: running text, spoken and captioned a sentence at a time. */
  script: string;
  language: Language;
  voiceId: string;
  synthesize?: Synthesizer | undefined;
  /** Names `synthesize`'s engine and setup, so lines it spoke are kept for the same words again (as composeAd's). */
  voiceEngine?: string | undefined;
  /** The music under the voice; none, the voice alone. */
  musicId?: string | undefined;
  captionId: string;
  aspectRatio: AspectRatio;
  quality: RenderQuality;
  /** The longest voice the presenter is asked to say: a longer one fails before `talk` is called (and paid for). */
  maxSeconds?: number | undefined;
  /** Makes the presenter say the voice: a clip at least as long as the voice, of any size (it is framed here). */
  talk(request: TalkRequest): Promise<string>;
}

export type TalkingStage = 'voice' | 'talking' | 'render';

export interface TalkingOptions {
  workDir: string;
  /** Where spoken lines and music loops are kept between videos (its `speech` and `music` folders). */
  cacheDir: string;
  tools?: MediaTools | undefined;
  signal?: AbortSignal | undefined;
  progress?: ((stage: TalkingStage) => Promise<void> | void) | undefined;
}

export interface ComposedTalking {
  file: string;
  width: number;
  height: number;
  seconds: number;
}

/** The script as the lines it is spoken in: one a sentence, so captions and a vendor's cuts fall between sentences. */
export const talkingLines = (script: string) => numberSegments(sentences(script));

/** Renders the presenter saying `plan.script` into `workDir/talking.mp4`. */
export async function composeTalking(plan: TalkingPlan, options: TalkingOptions): Promise<ComposedTalking> {
  const { workDir, cacheDir, signal, tools = locateTools() } = options;
  const progress = async (stage: TalkingStage) => options.progress?.(stage);
  const lines = talkingLines(plan.script);
  if (lines.length === 0) throw new RangeError('a presenter needs words to say');

  await progress('voice');
  const engine = plan.voiceEngine ?? (plan.synthesize ? undefined : `local-${LOCAL_VOICE_SOUND}`);
  const voice = await speakScript(lines, {
    voiceId: plan.voiceId,
    outDir: workDir,
    tools,
    synthesize: plan.synthesize,
    cache: engine === undefined ? undefined : { dir: join(cacheDir, 'speech'), engine },
  });
  signal?.throwIfAborted();
  if (plan.maxSeconds !== undefined && voice.seconds > plan.maxSeconds)
    throw new TalkTooLongError(`the voice runs ${voice.seconds.toFixed(1)} s, over the ${plan.maxSeconds} s a presenter video may`);
  const { width, height } = frameSize(plan.aspectRatio, shortSideOf(plan.quality));
  const seconds = voice.seconds;
  // Mixed while the presenter is made: only the final encode needs it.
  const audio = mixSoundtrack(plan.musicId, voice.file, seconds, workDir, cacheDir, tools);
  audio.catch(() => undefined);
  try {
    await progress('talking');
    const clip = await plan.talk({ voice: voice.file, sentenceEnds: voice.segments.map((s) => s.end), width, height });
    signal?.throwIfAborted();

    await progress('render');
    // The captions keep off the presenter's face, the mouth above all, wherever the clip puts it.
    const face = await faceInFrame(clip, { width, height }, seconds, workDir, tools);
    const captions = buildAss({
      segments: voice.segments.map((s) => ({ text: s.segText, start: s.start, end: s.end, words: s.words })),
      styleId: plan.captionId,
      width,
      height,
      language: plan.language,
      avoid: face ? [{ start: 0, end: seconds, box: face }] : [],
    });
    const template = TEMPLATES['clean-studio'];
    const label = buildLabelAss({ template, width, height, language: plan.language, seconds });
    const ass = join(workDir, 'talking.ass');
    await writeFile(ass, mergeAss(captions, label));
    const file = join(workDir, 'talking.mp4');
    await encode(
      { clip, audio: await audio, ass, fontsDir: cardFontsDir(template.type.font), width, height, seconds, file, plan },
      tools,
      signal,
    );
    return { file, width, height, seconds };
  } finally {
    await audio.catch(() => undefined);
  }
}

/**
 * A clip taller than the frame loses this share of what is cut from its top, the rest from its bottom: the face
 * sits in the upper part of a portrait. The encode crops so, and the captions' face box is carried through it.
 */
const TOP_CROP = 5;

/**
 * Where the presenter's face is in the finished frame, in shares of it: found on the clip's middle frame and carried
 * through the framing the encode applies (cover, centred across, a fifth from the top down). None when no face is
 * found (a stand-in without one, a clip turned away).
 */
async function faceInFrame(
  clip: string,
  frame: { width: number; height: number },
  seconds: number,
  workDir: string,
  tools: MediaTools,
): Promise<AvoidBox | undefined> {
  const still = join(workDir, 'talking-face.png');
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', (seconds / 2).toFixed(3), '-i', clip, '-frames:v', '1', still]);
  const [face] = await findFaces(still);
  if (!face) return undefined;
  const { width: iw, height: ih } = await probe(tools, clip);
  const scale = Math.max(frame.width / iw, frame.height / ih);
  const [left, top] = [(iw * scale - frame.width) / 2, (ih * scale - frame.height) / TOP_CROP];
  const x = (face.box.x * iw * scale - left) / frame.width;
  const y = (face.box.y * ih * scale - top) / frame.height;
  const w = (face.box.w * iw * scale) / frame.width;
  const h = (face.box.h * ih * scale) / frame.height;
  return aroundFace({ x, y, w, h });
}

const EXPORT_CRF = 20;
const PREVIEW_CRF = 26;

/** The clip covering the frame (centred; a portrait keeps its top, where the face is), captioned, over the soundtrack. */
async function encode(
  job: {
    clip: string;
    audio: string;
    ass: string;
    fontsDir: string;
    width: number;
    height: number;
    seconds: number;
    file: string;
    plan: TalkingPlan;
  },
  tools: MediaTools,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { width: w, height: h } = job;
  const video =
    `[0:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h}:(iw-ow)/2:(ih-oh)/${TOP_CROP},setsar=1,fps=25,` +
    `tpad=stop_mode=clone:stop_duration=${job.seconds.toFixed(3)},${BT709},` +
    `ass=filename=${filterValue(job.ass)}:fontsdir=${filterValue(job.fontsDir)},format=yuv420p[v]`;
  await runTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-i',
      job.clip,
      '-i',
      job.audio,
      '-filter_complex',
      video,
      '-map',
      '[v]',
      '-map',
      '1:a',
      '-t',
      job.seconds.toFixed(3),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      String(job.plan.quality === 'export' ? EXPORT_CRF : PREVIEW_CRF),
      '-pix_fmt',
      'yuv420p',
      // The stream says what its pixels are, as the ads' pieces do (decision "BT.709 exports").
      ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'],
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      ...Object.entries(AI_METADATA).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]),
      // As the ads are muxed (render.ts): custom tags kept, BT.709 in the colr box too.
      '-movflags',
      '+faststart+use_metadata_tags+write_colr',
      job.file,
    ],
    { timeoutMs: 10 * 60_000, signal },
  );
  await trimHeaderDurations(job.file);
}
