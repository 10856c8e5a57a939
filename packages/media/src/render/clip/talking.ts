/**
 * A talking presenter longer than a vendor's model takes in one run (decision "Talking presenters"): the voice track
 * is cut into spans no longer than the model's limit, on sentence ends where there is one; each span is spoken by
 * the model on its own; the clips are joined back, each held to its span's exact length, under the whole voice
 * track as we made it, so the lips stay on the words across the joins.
 */
import { runTool } from '../../run.js';
import type { MediaTools } from '../../tools.js';

/** What the presenter is asked to say: the voice track and where its sentences end, for a frame of `width`×`height`. */
export interface TalkRequest {
  voice: string;
  sentenceEnds: number[];
  width: number;
  height: number;
}

/** The script, spoken, runs longer than the plan allows the presenter to talk. */
export class TalkTooLongError extends RangeError {}

/** A stretch of the voice track, in seconds on its clock. */
export interface SpeechSpan {
  start: number;
  end: number;
}

/** A span shorter than this is not cut off on its own: a model asked for half a second of speech makes little of it. */
const SHORTEST = 1;

/**
 * The spans `seconds` of speech are cut into for a model that takes at most `max` seconds a run: each ends on the
 * last of `breaks` (the sentences' ends) that keeps it within `max`, or at `max` itself when no sentence ends in
 * time. A track within `max` is one span.
 */
export function talkingSpans(seconds: number, breaks: readonly number[], max: number): SpeechSpan[] {
  if (!(seconds > 0) || !(max > SHORTEST)) throw new RangeError('a talking clip needs speech and a limit over a second');
  const cuts = [...breaks].filter((at) => at > 0 && at < seconds).sort((a, b) => a - b);
  const spans: SpeechSpan[] = [];
  let start = 0;
  while (seconds - start > max) {
    const fits = cuts.filter((at) => at - start >= SHORTEST && at - start <= max && seconds - at >= SHORTEST);
    const end = fits.at(-1) ?? start + max;
    spans.push({ start, end });
    start = end;
  }
  spans.push({ start, end: seconds });
  return spans;
}

/**
 * One span of the voice track as AAC in an M4A file, which the vendors' talking models take; a span running past
 * the track's end (a presenter on screen after their last word) is made up with silence, so the clip covers it.
 */
export async function cutSpeech(voice: string, span: SpeechSpan, outFile: string, tools: MediaTools): Promise<string> {
  await runTool(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    voice,
    '-ss',
    span.start.toFixed(3),
    '-t',
    (span.end - span.start).toFixed(3),
    '-vn',
    '-af',
    'apad',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    outFile,
  ]);
  return outFile;
}

/**
 * The clips a model made for `spans`, in order, joined into one H.264 video of `width`×`height` at 25 fps (each
 * clip covers the frame, centred), every clip cut or held on its last frame to its span's length, under the whole
 * `voice` track: the file is exactly as long as the voice.
 */
export async function joinTalkingClips(
  clips: readonly string[],
  spans: readonly SpeechSpan[],
  voice: string,
  frame: { width: number; height: number },
  outFile: string,
  tools: MediaTools,
): Promise<string> {
  if (clips.length === 0 || clips.length !== spans.length) throw new RangeError('one clip a span');
  const { width, height } = frame;
  const parts = clips.map((_, i) => {
    const span = spans[i] as SpeechSpan;
    const length = (span.end - span.start).toFixed(3);
    return (
      `[${i}:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,fps=25,` +
      `tpad=stop_mode=clone:stop_duration=${length},trim=duration=${length},setpts=PTS-STARTPTS[c${i}]`
    );
  });
  const joined = `${clips.map((_, i) => `[c${i}]`).join('')}concat=n=${clips.length}:v=1:a=0,format=yuv420p[v]`;
  const seconds = spans.at(-1)?.end as number;
  await runTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      ...clips.flatMap((clip) => ['-i', clip]),
      '-i',
      voice,
      '-filter_complex',
      [...parts, joined].join(';'),
      '-map',
      '[v]',
      '-map',
      `${clips.length}:a`,
      '-t',
      seconds.toFixed(3),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-movflags',
      '+faststart',
      outFile,
    ],
    { timeoutMs: 300_000 },
  );
  return outFile;
}
