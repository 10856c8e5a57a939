/**
 * A track's composition written as a Standard MIDI File (with @tonejs/midi): a channel a part, drums on General
 * MIDI channel 10, each part's program, volume and reverb send set at its start. Pure: the same composition
 * gives the same bytes.
 */
import toneMidi from '@tonejs/midi';
import { chordTone, parseChord, voicing } from './chords.js';
import type { Composition, Part } from './tracks.js';

const { Midi } = toneMidi;

/** Ticks a quarter note (the library's default): a sixteenth is 120. */
const PPQ = 480;
const SIXTEENTH = PPQ / 4;
const STEPS_PER_BAR = 16;
/** General MIDI's percussion channel (10, counted from 1). */
const DRUM_CHANNEL = 9;
/** How long the file runs past the loop, so reverb and ringing notes are rendered; they are folded back onto the loop's start. */
export const TAIL_SECONDS = 3;

/** A drum hit's or note's loudness by its pattern letter: accented, normal or ghosted. */
const VELOCITY: Record<string, number> = { X: 1, x: 0.82, o: 0.5 };

interface Hit {
  step: number;
  /** In steps: up to the next note or rest. */
  length: number;
  char: string;
}

/** The notes a pattern plays over `bars` bars: each letter is a hit held through the `-` that follow it. */
function hits(pattern: string, bars: number): Hit[] {
  const total = bars * STEPS_PER_BAR;
  const found: Hit[] = [];
  for (let step = 0; step < total; step++) {
    const char = pattern[step % pattern.length] as string;
    if (char === '.') continue;
    if (char === '-') {
      const last = found.at(-1);
      if (last && last.step + last.length === step) last.length++;
      continue;
    }
    found.push({ step, length: 1, char });
  }
  return found;
}

/** Swing delays the off-beat sixteenths; the beats and eighths stay on the grid. */
const tickOf = (step: number, swing: number) => step * SIXTEENTH + (step % 2 === 1 ? Math.round(swing * SIXTEENTH) : 0);

/** A small, repeatable variation of loudness, so repeated notes do not sound like a machine gun. */
const humanise = (step: number, salt: number) => 0.92 + 0.08 * Math.abs(Math.sin(step * 12.9898 + salt * 78.233));

/** The pitches one hit of a part sounds over a chord. */
function pitches(part: Part, symbol: string, char: string, near: number): number[] {
  const chord = parseChord(symbol);
  if (part.role === 'chords') return voicing(chord, near);
  if (part.role === 'bass') {
    // The root between G1 and F#2 (octave 1): low enough to carry, high enough for small speakers to hint at it.
    const root = 31 + ((chord.root - 7 + 12) % 12) + 12 * ((part.octave ?? 1) - 1);
    return [root + chordTone(chord, char)];
  }
  const ladder = [...new Set(chord.intervals.map((i) => i % 12))].sort((a, b) => a - b);
  const index = Number(char);
  if (!Number.isInteger(index)) throw new RangeError(`unknown lead step ${char}`);
  const base = 12 * ((part.octave ?? 5) + 1) + chord.root;
  return [base + (ladder[index % ladder.length] as number) + 12 * Math.floor(index / ladder.length)];
}

/** The MIDI channel of the composition's part at `index`: one a part, stepping over the drums' channel. */
const channelOf = (index: number) => (index >= DRUM_CHANNEL ? index + 1 : index);

/** The channels scoreMidi plays and the General MIDI preset each asks for (the drums: a kit, bank 128). */
export function scoreChannels({ parts, kit = 0 }: Composition): { channel: number; program: number; drums: boolean }[] {
  return [
    ...parts.map((part, index) => ({ channel: channelOf(index), program: part.program, drums: false })),
    { channel: DRUM_CHANNEL, program: kit, drums: true },
  ];
}

/** The composition's eight (or so) bars as a MIDI file, running TAIL_SECONDS past the loop's end. */
export function scoreMidi(composition: Composition): Uint8Array {
  const { bpm, chords, parts, drums, fill, kit = 0, swing = 0 } = composition;
  const bars = chords.length;
  const midi = new Midi();
  midi.header.setTempo(bpm);
  const ticks = (steps: number) => steps * SIXTEENTH;

  parts.forEach((part, index) => {
    const track = midi.addTrack();
    track.channel = channelOf(index);
    track.instrument.number = part.program;
    track.addCC({ number: 7, value: part.volume / 127, ticks: 0 });
    track.addCC({ number: 91, value: (part.reverb ?? 40) / 127, ticks: 0 });
    let near = 64;
    for (const hit of hits(part.pattern, bars)) {
      const bar = Math.floor(hit.step / STEPS_PER_BAR);
      const notes = pitches(part, chords[bar] as string, hit.char, near);
      if (part.role === 'chords') near = notes.reduce((sum, n) => sum + n, 0) / notes.length;
      // A note ends at its bar's end, so a held chord never rings into the next chord.
      const end = Math.min(hit.step + hit.length, (bar + 1) * STEPS_PER_BAR);
      const start = tickOf(hit.step, swing);
      const accent = (VELOCITY[hit.char] ?? 0.82) * (hit.step % 4 === 0 ? 1 : 0.9);
      for (const note of notes) {
        track.addNote({
          midi: note,
          ticks: start,
          durationTicks: Math.max(SIXTEENTH / 2, ticks(end) - start - 10),
          velocity: Math.min(1, accent * humanise(hit.step, note)),
        });
      }
    }
  });

  const kitTrack = midi.addTrack();
  kitTrack.channel = DRUM_CHANNEL;
  kitTrack.instrument.number = kit;
  kitTrack.addCC({ number: 91, value: 30 / 127, ticks: 0 });
  for (let bar = 0; bar < bars; bar++) {
    const patterns = bar === bars - 1 && fill ? fill : drums;
    for (const [note, pattern] of Object.entries(patterns)) {
      for (const hit of hits(pattern.slice(0, STEPS_PER_BAR), 1)) {
        const step = bar * STEPS_PER_BAR + hit.step;
        kitTrack.addNote({
          midi: Number(note),
          ticks: tickOf(step, swing),
          durationTicks: SIXTEENTH,
          velocity: Math.min(1, (VELOCITY[hit.char] ?? 0.82) * humanise(step, Number(note))),
        });
      }
    }
  }
  // A silent controller change past the loop's end keeps the file (and so the rendering) running through the tail.
  kitTrack.addCC({ number: 110, value: 0, ticks: ticks(bars * STEPS_PER_BAR) + Math.round((TAIL_SECONDS * bpm * PPQ) / 60) });
  return midi.toArray();
}
