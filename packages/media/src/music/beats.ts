import { musicComposition } from './tracks.js';

/** The sample rate tracks are rendered at. */
export const MUSIC_RATE = 44_100;

/** A track's loop in samples: whole bars at its tempo, rounded once, so the beat grid is exact for every repeat. */
export function loopSamples(bpm: number, bars: number): number {
  return Math.round((bars * 4 * 60 * MUSIC_RATE) / bpm);
}

/**
 * The beats of a track's bed in seconds from its start, those before `seconds`: the loop's quarter notes, repeat
 * after repeat (musicBed plays the loop from its first beat). Scenes cut on them (planTimeline's `beats`).
 */
export function musicBeats(musicId: string, seconds: number): number[] {
  const { bpm, chords } = musicComposition(musicId);
  const loop = loopSamples(bpm, chords.length) / MUSIC_RATE;
  const perLoop = chords.length * 4;
  const beats: number[] = [];
  for (let i = 0; ; i++) {
    const at = Math.floor(i / perLoop) * loop + ((i % perLoop) * 60) / bpm;
    if (at >= seconds) return beats;
    beats.push(Math.round(at * 1e6) / 1e6);
  }
}
