import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEGMENT_PAUSE } from '../script/rate.js';
import type { ScriptSegment } from '../script/split.js';
import type { MediaTools } from '../tools.js';
import { type Speech, type Synthesizer, synthesize } from './synthesize.js';
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
  /**
   * Where lines once spoken are kept, and the engine that spoke them (its name and setup: the server's
   * `Voice.engine`): a preview's script spoken again for its export, or after an edit of another line, is read
   * back instead of synthesised (and not paid for again at a vendor). Without it every line is synthesised.
   */
  cache?: { dir: string; engine: string } | undefined;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Speaks a script segment by segment, so each segment's real length is known (scenes and captions follow the
 * voice, not an estimate), and joins them into one voice track.
 */
export async function speakScript(
  segments: ScriptSegment[],
  { voiceId, outDir, pause = SEGMENT_PAUSE, tools, synthesize: say = synthesize, cache }: SpeakOptions,
): Promise<VoiceTrack> {
  if (segments.length === 0) throw new RangeError('a script needs at least one segment');
  const spoken = [];
  for (const segment of segments) {
    const outFile = join(outDir, `segment-${segment.segId}.wav`);
    const line = cache && lineCache(cache, voiceId, segment.segText);
    const known = line && (await readLine(line, outFile));
    // One at a time: the engine is single-threaded WebAssembly, so parallel calls only add memory.
    const speech = known ?? (await say(segment.segText, { voiceId, outFile, tools }));
    if (line && !known) await keepLine(line, speech);
    spoken.push({ segment, file: speech.file, words: speech.words });
  }
  return joinSpoken(spoken, pause, join(outDir, 'voice.wav'));
}

/** A spoken line's files in the cache: by engine, voice and the exact words. */
function lineCache(cache: { dir: string; engine: string }, voiceId: string, text: string) {
  const key = createHash('sha256').update(`${cache.engine}\0${voiceId}\0${text}`).digest('hex').slice(0, 32);
  return { dir: cache.dir, wav: join(cache.dir, `${key}.wav`), words: join(cache.dir, `${key}.words.json`) };
}

/**
 * The line from the cache, copied to `outFile`; none when it is not there whole (never spoken, or swept: the words
 * file is written last, so its presence says the audio is there too).
 */
async function readLine(line: ReturnType<typeof lineCache>, outFile: string): Promise<Pick<Speech, 'file' | 'words'> | undefined> {
  const words = await readFile(line.words, 'utf8').catch(() => undefined);
  if (words === undefined) return undefined;
  if (
    !(await copyFile(line.wav, outFile).then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  return { file: outFile, words: (JSON.parse(words) as { words: WordTiming[] | null }).words ?? undefined };
}

/** Keeps a line just spoken, written aside and renamed so a render beside this one never reads half a file. */
async function keepLine(line: ReturnType<typeof lineCache>, speech: Pick<Speech, 'file' | 'words'>): Promise<void> {
  await mkdir(line.dir, { recursive: true });
  const part = `.${randomUUID()}.part`;
  try {
    await copyFile(speech.file, `${line.wav}${part}`);
    await rename(`${line.wav}${part}`, line.wav);
    await writeFile(`${line.words}${part}`, JSON.stringify({ words: speech.words ?? null }));
    await rename(`${line.words}${part}`, line.words);
  } finally {
    await Promise.all([rm(`${line.wav}${part}`, { force: true }), rm(`${line.words}${part}`, { force: true })]);
  }
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
