/**
 * The voice fits the video (decision "Speech fits the slot"): the call to action is heard whole, ending between
 * VOICE_END.latest and VOICE_END.earliest seconds before the video does. A voice too long is first spoken faster
 * (up to MAX_SPEED_UP, which still sounds natural), then loses the sentences the script put last before the call
 * to action, one at a time; the opening line (the hook) and the call to action are never dropped. A voice too
 * short breathes longer between its sentences (up to MAX_PAUSE); what is still short, the scenes and the end card
 * hold (timeline.ts).
 */
import { join } from 'node:path';
import { runTool } from '../run.js';
import { SEGMENT_PAUSE } from '../script/rate.js';
import { locateTools, type MediaTools } from '../tools.js';
import { joinSpoken, type VoiceTrack } from './track.js';
import type { WordTiming } from './words.js';

/** How long before the video's end the voice ends: at least `latest`, aiming for the middle. */
export const VOICE_END = { latest: 0.3, earliest: 1.2 };
/** The fastest the voice is sped up before a sentence is dropped instead. */
export const MAX_SPEED_UP = 1.12;
/** The longest breath between sentences a voice too short for its video is given: longer, an ad sounds slow. */
export const MAX_PAUSE = 0.8;
/** The longest the voice may be silent between two words, the quiet at the ends of each sentence's file included. */
export const MAX_SILENCE = 1;

/** A voice track fitted to a video: what was done to it, for the caller's log and the tests. */
export interface FittedVoice extends VoiceTrack {
  /** How much faster it is spoken (1: as synthesised). */
  tempo: number;
  /** The segments left out, by id. */
  dropped: (string | number)[];
}

/** A word's timing moved along the clock: a segment's words are relative to its file when it is joined again. */
const shift = (word: WordTiming, by: number): WordTiming => ({ ...word, start: word.start + by, end: word.end + by });

/** When the voice's last word ends, on the track's clock. */
const speechEnd = (track: VoiceTrack) => track.segments.at(-1)?.end ?? 0;

/** A track's segments joined again with `pause` after each, their words kept on the new clock. */
const rejoin = (segments: VoiceTrack['segments'], pause: number, outFile: string) =>
  joinSpoken(
    segments.map((segment) => ({ segment, file: segment.file, words: segment.words.map((w) => shift(w, -segment.start)) })),
    pause,
    outFile,
  );

/**
 * A voice that ends well before its video: longer breaths between its sentences, up to MAX_PAUSE, so the scenes
 * that follow the voice hold and the pictures do not run on in silence; what is still short, the timeline holds.
 */
async function breathe(track: VoiceTrack, length: number, pause: number, outDir: string): Promise<VoiceTrack> {
  const gaps = track.segments.length - 1;
  const aim = length - (VOICE_END.latest + VOICE_END.earliest) / 2;
  const short = aim - speechEnd(track);
  if (gaps < 1 || short <= 0) return track;
  // Each sentence's file has its own quiet before its first word and after its last: the breath makes up the rest.
  const quiet = Math.max(
    ...track.segments.slice(1).map((next, i) => {
      const before = track.segments[i] as VoiceTrack['segments'][number];
      return before.end - (before.words.at(-1)?.end ?? before.end) + ((next.words[0]?.start ?? next.start) - next.start);
    }),
  );
  const longer = Math.min(MAX_PAUSE, MAX_SILENCE - quiet, pause + short / gaps);
  if (longer - pause < 0.05) return track;
  return rejoin(track.segments, longer, join(outDir, 'voice-breathing.wav'));
}

export async function fitVoice(
  track: VoiceTrack,
  length: number,
  { outDir, pause = SEGMENT_PAUSE, tools = locateTools() }: { outDir: string; pause?: number; tools?: MediaTools },
): Promise<FittedVoice> {
  const latest = length - VOICE_END.latest;
  if (speechEnd(track) <= latest) return { ...(await breathe(track, length, pause, outDir)), tempo: 1, dropped: [] };
  let fitted: VoiceTrack = track;
  const dropped: (string | number)[] = [];
  // Sentences go from the one before the call to action backwards, while even the fastest voice runs over.
  while (fitted.segments.length > 2 && speechEnd(fitted) / MAX_SPEED_UP > latest) {
    const kept = [...fitted.segments];
    const [gone] = kept.splice(kept.length - 2, 1);
    if (gone) dropped.push(gone.segId);
    fitted = await rejoin(kept, pause, join(outDir, `voice-${dropped.length}.wav`));
  }
  // As fast as it takes to end in the middle of the allowed span, no faster than the limit.
  const aim = length - (VOICE_END.latest + VOICE_END.earliest) / 2;
  const tempo = Math.min(MAX_SPEED_UP, Math.max(1, speechEnd(fitted) / aim));
  if (tempo === 1) return { ...fitted, tempo, dropped };
  const file = join(outDir, 'voice-fitted.wav');
  // atempo keeps the pitch; the sample format and rate stay the voice's own.
  await runTool(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    fitted.file,
    '-filter:a',
    `atempo=${tempo.toFixed(4)}`,
    '-c:a',
    'pcm_s16le',
    file,
  ]);
  const at = (seconds: number) => Math.round((seconds / tempo) * 1000) / 1000;
  return {
    file,
    seconds: at(fitted.seconds),
    segments: fitted.segments.map((s) => ({
      ...s,
      start: at(s.start),
      end: at(s.end),
      seconds: at(s.seconds),
      words: s.words.map((w) => ({ ...w, start: at(w.start), end: at(w.end) })),
    })),
    tempo,
    dropped,
  };
}
