import type { Pcm } from '../speech/wav.js';
import type { Composition } from './tracks.js';

export const MUSIC_RATE = 44_100;

const frequency = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** A tiny deterministic noise source, so the same track is the same file on every machine. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 31 - 1;
  };
}

/**
 * Renders one seamless loop of a composition (four bars) to PCM: a warm pad (sine and a quiet triangle an
 * octave up, slow attack), a bell-like arpeggio (sine with a fast decay), a bass note, and optionally a soft
 * kick and closed hats. Notes ringing past the loop's end wrap to its start, so the loop repeats without a click.
 */
export function composeLoop({ bpm, chords, arpeggio, kick, hats }: Composition): Pcm {
  const beat = 60 / bpm;
  const length = Math.round(chords.length * 4 * beat * MUSIC_RATE);
  const mix = new Float32Array(length);
  const add = (start: number, seconds: number, sample: (t: number) => number) => {
    const from = Math.round(start * MUSIC_RATE);
    const count = Math.round(seconds * MUSIC_RATE);
    for (let i = 0; i < count; i++) mix[(from + i) % length] = (mix[(from + i) % length] as number) + sample(i / MUSIC_RATE);
  };
  const tone = (f: number, t: number) => Math.sin(2 * Math.PI * f * t);
  const triangle = (f: number, t: number) => (2 / Math.PI) * Math.asin(Math.sin(2 * Math.PI * f * t));
  const hiss = noise(7);

  chords.forEach((chord, bar) => {
    const barStart = bar * 4 * beat;
    const [bass = 36, ...upper] = chord;
    const barSeconds = 4 * beat;
    // Pad: swells in and out over the bar, overlapping the next chord slightly.
    for (const note of upper) {
      const f = frequency(note);
      add(barStart, barSeconds + 0.4, (t) => {
        const envelope = Math.min(1, t / 0.35) * Math.min(1, (barSeconds + 0.4 - t) / 0.6);
        return 0.05 * envelope * (tone(f, t) + 0.3 * triangle(2 * f, t));
      });
    }
    add(barStart, barSeconds, (t) => 0.16 * Math.min(1, t / 0.02) * Math.exp(-t * 1.2) * tone(frequency(bass), t));
    // Arpeggio: up and down the chord an octave higher, each note a plucked bell.
    const pattern = [...upper, ...upper.slice(1, -1).reverse()];
    for (let step = 0; step < 4 * arpeggio; step++) {
      const f = frequency((pattern[step % pattern.length] as number) + 12);
      add(
        barStart + (step * beat) / arpeggio,
        0.9,
        (t) => 0.07 * Math.min(1, t / 0.005) * Math.exp(-t * 5) * (tone(f, t) + 0.2 * tone(3 * f, t)),
      );
    }
    for (let b = 0; b < 4; b++) {
      const at = barStart + b * beat;
      // A kick drum is a sine falling from 160 Hz to 50 Hz: the phase is the integral of that glide.
      if (kick) add(at, 0.3, (t) => 0.3 * Math.exp(-t * 18) * Math.sin(2 * Math.PI * (50 * t + (110 / 30) * (1 - Math.exp(-t * 30)))));
      if (hats) add(at + beat / 2, 0.06, (t) => 0.025 * Math.exp(-t * 70) * hiss());
    }
  });

  const peak = mix.reduce((max, v) => Math.max(max, Math.abs(v)), 0) || 1;
  const samples = Int16Array.from(mix, (v) => Math.round((v / peak) * 0.8 * 32_767));
  return { sampleRate: MUSIC_RATE, channels: 1, samples };
}
