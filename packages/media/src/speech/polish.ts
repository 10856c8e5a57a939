/**
 * eSpeak NG made as pleasant as it can be (decision "Voices and word timings"): its 22 050 Hz formant speech is
 * resampled to 48 kHz with SoX's resampler, the rumble below 80 Hz goes, the fixed upper formants that buzz at
 * about 3.3 and 4.4 kHz are turned down, a little presence is added around 2 kHz, the glottal clicks above 9 kHz
 * are softened, and a light compressor evens the read. The peak is then held at -1 dBFS, so nothing clips.
 * Listened to by numbers in en, zh and pt (spectra, EBU R128 loudness, crest factor); the figures are in the decision.
 */
import { writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { runTool } from '../run.js';
import type { MediaTools } from '../tools.js';
import { readFloatWav, writeWav } from './wav.js';

/** What the local voices sound like, by version: a change of the chain below bumps it, so cached samples are remade. */
export const LOCAL_VOICE_SOUND = 'espeak-48k-4';

/** The local voices' sample rate. */
export const SPEECH_RATE = 48_000;

export const ESPEAK_CHAIN = [
  `aresample=${SPEECH_RATE}:resampler=soxr`,
  // The filters below work on floats: left to negotiate, the resampler handed them 16-bit samples and the
  // high-pass then gave a different result on every run (ffmpeg 5.1 and 4.1 alike), so the same line sounded
  // (and was timed) a little differently in a preview and its export.
  'aformat=sample_fmts=flt',
  // Rumble below 80 Hz, at 24 dB an octave: one 12 dB stage left the 20-70 Hz band only 4 dB down on the raw voice.
  'highpass=f=80',
  'highpass=f=80',
  // Presence: the consonants' place, where a voice is understood over music.
  'equalizer=f=2000:width_type=o:width=1.2:g=2',
  // eSpeak's fixed fourth and fifth formants: a narrow, steady buzz on every voiced sound.
  'equalizer=f=3300:width_type=q:width=2.5:g=-5',
  'equalizer=f=4400:width_type=q:width=2.5:g=-5',
  'lowpass=f=9000',
  // About 2:1 above -20 dBFS, quick enough for syllables, slow enough not to pump; +6 dB after it.
  'acompressor=threshold=0.1:ratio=2:attack=8:release=120:makeup=2',
].join(',');

/** The loudest a sample may be after the chain: -1 dBFS. */
const PEAK = 10 ** (-1 / 20);

/** Runs eSpeak's WAV through the chain into a 16-bit 48 kHz WAV at `outFile`; answers its length in seconds. */
export async function polishEspeak(wav: Uint8Array, outFile: string, tools: MediaTools): Promise<number> {
  const raw = `${outFile}.espeak.wav`;
  const float = `${outFile}.float.wav`;
  // Written at once, so ffmpeg starts in this turn of the event loop, before the next line's eSpeak instance is
  // unpacked on this thread (espeak.ts): the two then overlap.
  writeFileSync(raw, wav);
  try {
    // Float out of the chain, so a peak over full scale is turned down here rather than clipped by ffmpeg.
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-i', raw, '-af', ESPEAK_CHAIN, '-c:a', 'pcm_f32le', float]);
    const { sampleRate, channels, samples } = readFloatWav(await readFile(float));
    let peak = 0;
    for (const x of samples) peak = Math.max(peak, Math.abs(x));
    const gain = peak > PEAK ? PEAK / peak : 1;
    const out = new Int16Array(samples.length);
    for (const [i, x] of samples.entries()) out[i] = Math.round(x * gain * 32767);
    await writeFile(outFile, writeWav({ sampleRate, channels, samples: out }));
    return samples.length / channels / sampleRate;
  } finally {
    await Promise.all([rm(raw, { force: true }), rm(float, { force: true })]);
  }
}
