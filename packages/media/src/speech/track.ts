import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEGMENT_PAUSE } from '../script/rate.js';
import type { ScriptSegment } from '../script/split.js';
import type { MediaTools } from '../tools.js';
import { type Synthesizer, synthesize } from './synthesize.js';
import { pcmSeconds, readWav, writeWav } from './wav.js';
import { spokenWords, spreadWords, type WordTiming } from './words.js';

/** A segment as spoken in the voice track: captions show it from `start` to `end`. */
export interface SpokenSegment extends ScriptSegment {
  /** Its own WAV file. */
  file: string;
  start: number;
  end: number;
  /** Its slot in the track, speech and the pause after it: what a scene showing it lasts (sums to the track). */
  seconds: number;
  /** Each word on the track's clock, for word-timed captions. */
  words: WordTiming[];
}

export interface VoiceTrack {
  /** All segments one after another, with a breath between them. */
  file: string;
  seconds: number;
  segments: SpokenSegment[];
}

export interface SpeakOptions {
  voiceId: string;
  /** Where the segment files and `voice.wav` go. */
  outDir: string;
  /** The breath between segments. */
  pause?: number;
  tools?: MediaTools | undefined;
  /**
   * Speaks one line into a 16-bit PCM WAV: the local engine unless the server has a speech provider. All lines
   * of one script must come out at one sample rate and channel count, since they are joined sample by sample.
   */
  synthesize?: Synthesizer;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Speaks a script segment by segment, so each segment's real length is known (scenes and captions follow the
 * voice, not an estimate), and joins them into one voice track.
 */
export async function speakScript(
  segments: ScriptSegment[],
  { voiceId, outDir, pause = SEGMENT_PAUSE, tools, synthesize: say = synthesize }: SpeakOptions,
): Promise<VoiceTrack> {
  if (segments.length === 0) throw new RangeError('a script needs at least one segment');
  const spoken = [];
  for (const segment of segments) {
    // One at a time: the engine is single-threaded WebAssembly, so parallel calls only add memory.
    const speech = await say(segment.segText, { voiceId, outFile: join(outDir, `segment-${segment.segId}.wav`), tools });
    spoken.push({ segment, file: speech.file, words: speech.words });
  }
  return joinSpoken(spoken, pause, join(outDir, 'voice.wav'));
}

/**
 * Joins spoken segments (each its own WAV, all at one sample rate and channel count) into one voice track at
 * `outFile`, a breath of `pause` after each: where each segment starts and ends, and the slot a scene showing
 * it gets.
 */
export async function joinSpoken(
  spoken: { segment: ScriptSegment; file: string; words?: WordTiming[] | undefined }[],
  pause: number,
  outFile: string,
): Promise<VoiceTrack> {
  const read = await Promise.all(spoken.map(async (s) => ({ ...s, pcm: readWav(await readFile(s.file)) })));
  const { sampleRate, channels } = read[0]?.pcm ?? { sampleRate: 22_050, channels: 1 };
  const gap = Math.round(pause * sampleRate) * channels;
  const samples = new Int16Array(read.reduce((sum, s) => sum + s.pcm.samples.length + gap, 0));
  let at = 0;
  const track: SpokenSegment[] = read.map(({ segment, file, pcm, words }) => {
    samples.set(pcm.samples, at);
    const start = at / channels / sampleRate;
    at += pcm.samples.length + gap;
    const own = words ?? spreadWords(spokenWords(segment.segText), 0, pcmSeconds(pcm));
    return {
      ...segment,
      file,
      start: round(start),
      end: round(start + pcmSeconds(pcm)),
      seconds: round(pcmSeconds(pcm) + pause),
      words: own.map((w) => ({ ...w, start: round(start + w.start), end: round(start + w.end) })),
    };
  });
  await writeFile(outFile, writeWav({ sampleRate, channels, samples }));
  return { file: outFile, seconds: round(samples.length / channels / sampleRate), segments: track };
}
