/**
 * Chord symbols as the tracks are written ("Am7", "Fmaj7", "Bb") turned into pitches: a voicing for the chord
 * instruments that moves as little as possible from the chord before it (voice leading, so changes sound smooth
 * rather than jumping), and the root, third, fifth and seventh the bass and the arpeggios pick from.
 */

const NOTE: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** Intervals above the root of each chord quality the tracks use. */
const QUALITY: Record<string, number[]> = {
  '': [0, 4, 7],
  m: [0, 3, 7],
  '7': [0, 4, 7, 10],
  maj7: [0, 4, 7, 11],
  m7: [0, 3, 7, 10],
  m9: [0, 3, 7, 10, 14],
  maj9: [0, 4, 7, 11, 14],
  add9: [0, 4, 7, 14],
  '6': [0, 4, 7, 9],
  sus2: [0, 2, 7],
  sus4: [0, 5, 7],
  m7b5: [0, 3, 6, 10],
};

export interface Chord {
  /** Pitch class of the root, 0 = C. */
  root: number;
  intervals: number[];
}

export function parseChord(symbol: string): Chord {
  const match = /^([A-G])([b#]?)(.*)$/.exec(symbol);
  const intervals = match && QUALITY[match[3] as string];
  if (!match || !intervals) throw new RangeError(`unknown chord ${symbol}`);
  const accidental = match[2] === 'b' ? -1 : match[2] === '#' ? 1 : 0;
  return { root: ((NOTE[match[1] as string] as number) + accidental + 12) % 12, intervals };
}

/** Lowest and highest note of a chord voicing: the middle of the piano, under a melody and above the bass. */
const VOICING_LOW = 52;
const VOICING_HIGH = 79;

/** The chord's notes within the voicing range, in the inversion whose notes sit nearest `near` (a MIDI pitch). */
export function voicing({ root, intervals }: Chord, near: number): number[] {
  const classes = [...new Set(intervals.map((i) => (root + i) % 12))];
  let best: number[] = [];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let inversion = 0; inversion < classes.length; inversion++) {
    const order = [...classes.slice(inversion), ...classes.slice(0, inversion)];
    for (let base = VOICING_LOW; base < VOICING_LOW + 12; base++) {
      if (base % 12 !== order[0]) continue;
      const notes: number[] = [];
      for (const pc of order) {
        let pitch = notes.length ? (notes.at(-1) as number) + 1 : base;
        while (pitch % 12 !== pc) pitch++;
        notes.push(pitch);
      }
      if ((notes.at(-1) as number) > VOICING_HIGH) continue;
      const centre = notes.reduce((sum, n) => sum + n, 0) / notes.length;
      if (Math.abs(centre - near) < bestDistance) {
        bestDistance = Math.abs(centre - near);
        best = notes;
      }
    }
  }
  return best;
}

/** The chord tones a bass line names: 1 root, 3 third, 5 fifth, 7 seventh (or the sixth), 8 the octave. */
export function chordTone({ intervals }: Chord, degree: string): number {
  const third = intervals.find((i) => i >= 2 && i <= 5) ?? 4;
  const fifth = intervals.find((i) => i === 6 || i === 7) ?? 7;
  const seventh = intervals.find((i) => i >= 9 && i <= 11) ?? 10;
  const tones: Record<string, number> = { '1': 0, '3': third, '5': fifth, '7': seventh, '8': 12 };
  const tone = tones[degree];
  if (tone === undefined) throw new RangeError(`unknown bass degree ${degree}`);
  return tone;
}
