/** A music track of the catalogue (spec "Screens and routes" screen 3: music, recommended first). */
export interface MusicInfo {
  musicId: string;
  name: string;
  mood: string;
  recommended: boolean;
}

/** How a track is composed: four chords a bar each, arpeggiated over a pad, with an optional soft beat. */
export interface Composition {
  bpm: number;
  /** MIDI note numbers of each bar's chord, lowest first. */
  chords: number[][];
  /** Arpeggio notes per beat (2: eighths, 4: sixteenths). */
  arpeggio: 2 | 4;
  kick: boolean;
  hats: boolean;
}

interface MusicTrack extends MusicInfo {
  composition: Composition;
}

const TRACKS: MusicTrack[] = [
  {
    musicId: 'sunrise',
    name: 'Sunrise',
    mood: 'upbeat',
    recommended: true,
    // C – G – Am – F, the bright I–V–vi–IV of pop ads.
    composition: {
      bpm: 112,
      chords: [
        [48, 60, 64, 67],
        [43, 59, 62, 67],
        [45, 60, 64, 69],
        [41, 60, 65, 69],
      ],
      arpeggio: 2,
      kick: true,
      hats: true,
    },
  },
  {
    musicId: 'breeze',
    name: 'Breeze',
    mood: 'calm',
    recommended: true,
    // Fmaj7 – Dm7 – Bbmaj7 – C, slow and open.
    composition: {
      bpm: 84,
      chords: [
        [41, 57, 64, 69],
        [38, 57, 60, 65],
        [46, 58, 62, 69],
        [48, 55, 64, 67],
      ],
      arpeggio: 2,
      kick: false,
      hats: true,
    },
  },
  {
    musicId: 'spark',
    name: 'Spark',
    mood: 'energetic',
    recommended: false,
    // Am – F – C – G at a running pace.
    composition: {
      bpm: 128,
      chords: [
        [45, 60, 64, 69],
        [41, 60, 65, 69],
        [48, 60, 64, 67],
        [43, 59, 62, 67],
      ],
      arpeggio: 4,
      kick: true,
      hats: true,
    },
  },
  {
    musicId: 'velvet',
    name: 'Velvet',
    mood: 'elegant',
    recommended: false,
    // Cm7 – F7 – Bbmaj7 – Gm7, a soft jazz turn.
    composition: {
      bpm: 92,
      chords: [
        [48, 58, 63, 67],
        [41, 57, 63, 65],
        [46, 57, 62, 65],
        [43, 58, 62, 65],
      ],
      arpeggio: 2,
      kick: true,
      hats: false,
    },
  },
];

export const MUSIC: readonly MusicInfo[] = TRACKS.map(({ composition: _, ...info }) => info);

export function musicComposition(musicId: string): Composition {
  const found = TRACKS.find((t) => t.musicId === musicId);
  if (!found) throw new RangeError(`unknown music track ${musicId}`);
  return found.composition;
}
