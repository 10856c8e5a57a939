/**
 * The music catalogue: eight tracks, one per mood an ad asks for, each a short MIDI composition written here
 * (chords, bass, an arpeggio or melody, drums on General MIDI channel 10) that the product renders itself with
 * FluidSynth and the FluidR3 General MIDI SoundFont (decision "SoundFont music"). A track is eight bars that loop.
 */

/** A music track of the catalogue (spec "Screens and routes" screen 3: music, recommended first). */
export interface MusicInfo {
  musicId: string;
  name: string;
  mood: string;
  recommended: boolean;
}

/**
 * One instrument of a track. A pattern is sixteenth notes, one bar (16 steps) or a phrase of several, repeated
 * over the eight bars: `.` rest, `-` holds the note before. Chords strike the bar's chord on `x` (`X` accented, `o` soft); a bass
 * plays the chord's `1` root, `3` third, `5` fifth, `7` seventh or `8` octave; a lead plays `0`–`9`, the n-th chord
 * tone upwards from its octave, so a melody always fits the harmony under it.
 */
export interface Part {
  role: 'chords' | 'bass' | 'lead';
  /** General MIDI program, from 0 (0 piano, 4 electric piano, 33 fingered bass, 48 strings…). */
  program: number;
  pattern: string;
  /**
   * A lead's octave: its first chord tone is the chord's root in it (4 is middle C's, 5 the one above, the default).
   * A bass's: 1 (the default) puts the root between G1 and F#2, 2 an octave up.
   */
  octave?: number;
  /** Channel volume, 0–127: the part's place in the mix. */
  volume: number;
  /** Reverb send, 0–127. */
  reverb?: number;
}

export interface Composition {
  bpm: number;
  /** A chord a bar: the eight bars of the loop. */
  chords: string[];
  parts: Part[];
  /** General MIDI drum notes (36 kick, 38 snare, 39 clap, 42 closed hat…) and their sixteenth patterns. */
  drums: Record<number, string>;
  /** The last bar's drums, a fill that leads back into the loop's first bar. */
  fill?: Record<number, string>;
  /** The drum kit (General MIDI bank 128 preset: 0 standard, 24 electronic, 32 jazz, 40 brush, 48 orchestra). */
  kit?: number;
  /** Off-beat sixteenths played late by this share of a sixteenth (the lazy feel of lo-fi and jazz); beats stay on the grid. */
  swing?: number;
}

interface MusicTrack extends MusicInfo {
  composition: Composition;
}

// GM drum notes, named for reading the patterns.
const KICK = 36;
const STICK = 37;
const SNARE = 38;
const CLAP = 39;
const LOW_TOM = 41;
const HAT = 42;
const MID_TOM = 45;
const OPEN_HAT = 46;
const HIGH_TOM = 48;
const CRASH = 49;
const RIDE = 51;
const TAMBOURINE = 54;
const WOOD_BLOCK = 76;
const SHAKER = 70;

const TRACKS: MusicTrack[] = [
  {
    musicId: 'sunrise',
    name: 'Sunrise',
    mood: 'upbeat',
    recommended: true,
    // The bright I–V–vi–IV of pop ads in C: piano and guitar strum, a bouncing bass, a vibraphone arpeggio.
    composition: {
      bpm: 112,
      chords: ['C', 'G', 'Am', 'F', 'C', 'G', 'F', 'G'],
      parts: [
        { role: 'chords', program: 0, pattern: 'X..x..x.x..x..x.', volume: 80, reverb: 40 },
        { role: 'chords', program: 25, pattern: 'x.o.x.o.x.o.x.o.', volume: 55, reverb: 50 },
        { role: 'bass', program: 33, pattern: '1..1..1.1..1..5.', volume: 100 },
        { role: 'lead', program: 11, pattern: '0.1.2.3.4.3.2.1.2.3.4.5.4---2...', octave: 5, volume: 62, reverb: 60 },
      ],
      drums: {
        [KICK]: 'X.....x.X.......',
        [SNARE]: '....X.......X...',
        [CLAP]: '....x.......x...',
        [HAT]: 'x.o.x.o.x.o.x.o.',
        [OPEN_HAT]: '..............x.',
      },
      fill: { [KICK]: 'X.......X.......', [SNARE]: '....X...x.x.XxXx', [HAT]: 'x.o.x.o.x.o.....' },
    },
  },
  {
    musicId: 'breeze',
    name: 'Breeze',
    mood: 'chill',
    recommended: true,
    // Fmaj7 – Dm7 – Bbmaj7 – C on a Rhodes, slow and open, a soft kick, side stick and shaker.
    composition: {
      bpm: 84,
      chords: ['Fmaj7', 'Dm7', 'Bbmaj7', 'C', 'Fmaj7', 'Am7', 'Bbmaj7', 'Csus4'],
      parts: [
        { role: 'chords', program: 4, pattern: 'x-------x-----x-', volume: 85, reverb: 60 },
        { role: 'bass', program: 33, pattern: '1-----1.5-----3.', volume: 100 },
        { role: 'lead', program: 11, pattern: '2...1...3-..2...4---3...2-..1...', octave: 5, volume: 62, reverb: 70 },
      ],
      drums: {
        [KICK]: 'X.......X..x....',
        [STICK]: '....x.......x...',
        [SHAKER]: 'o.x.o.x.o.x.o.x.',
      },
    },
  },
  {
    musicId: 'spark',
    name: 'Spark',
    mood: 'energetic',
    recommended: false,
    // Am – F – C – G at a running pace: four-on-the-floor, off-beat synth stabs, a sawtooth arpeggio in sixteenths.
    composition: {
      bpm: 128,
      chords: ['Am', 'F', 'C', 'G', 'Am', 'F', 'C', 'E'],
      parts: [
        { role: 'chords', program: 90, pattern: 'x-------x-------', volume: 60, reverb: 50 },
        { role: 'chords', program: 62, pattern: '..x...x...x...x.', volume: 62, reverb: 30 },
        { role: 'bass', program: 38, pattern: '1.1.1.1.1.1.8.1.', volume: 95 },
        { role: 'lead', program: 81, pattern: '0123210123432101', octave: 5, volume: 45, reverb: 40 },
      ],
      drums: {
        [KICK]: 'X...X...X...X...',
        [CLAP]: '....X.......X...',
        [HAT]: 'xo.oxo.oxo.oxo.o',
        [OPEN_HAT]: '..x...x...x...x.',
      },
      fill: { [KICK]: 'X...X...X...X...', [SNARE]: '....x...xxxxXXXX', [HAT]: 'xo.oxo.o........' },
      kit: 24,
    },
  },
  {
    musicId: 'velvet',
    name: 'Velvet',
    mood: 'luxury',
    recommended: false,
    // A soft jazz turn in C minor: piano comping over strings, a walking upright bass, brushes and ride, swung.
    composition: {
      bpm: 92,
      chords: ['Cm9', 'Fm7', 'Bbmaj7', 'Ebmaj7', 'Abmaj7', 'Dm7b5', 'G7', 'Cm7'],
      parts: [
        { role: 'chords', program: 0, pattern: 'X-----.x------..', volume: 82, reverb: 70 },
        { role: 'chords', program: 48, pattern: 'x---------------', volume: 50, reverb: 80 },
        { role: 'bass', program: 32, pattern: '1...3...5...7...', volume: 110 },
        { role: 'lead', program: 11, pattern: '....2-3-4---..1...3-2-1-0-------', octave: 5, volume: 55, reverb: 80 },
      ],
      drums: {
        [KICK]: 'x.......x.......',
        [RIDE]: 'X...x..xX...x..x',
        [SNARE]: '....o.......o...',
      },
      kit: 40,
      swing: 0.3,
    },
  },
  {
    musicId: 'horizon',
    name: 'Horizon',
    mood: 'corporate',
    recommended: true,
    // D major, hopeful and steady: a piano arpeggio in eighths over strings, driving eighth-note bass, light drums.
    composition: {
      bpm: 104,
      chords: ['Dadd9', 'A', 'Bm', 'G', 'Dadd9', 'A', 'G', 'Asus4'],
      parts: [
        { role: 'chords', program: 48, pattern: 'x-------x-------', volume: 62, reverb: 70 },
        { role: 'lead', program: 0, pattern: '0.1.2.3.4.3.2.1.', octave: 5, volume: 82, reverb: 50 },
        { role: 'bass', program: 33, pattern: '1.1.1.1.1.1.1.1.', volume: 92 },
      ],
      drums: {
        [KICK]: 'X.....x.X.......',
        [CLAP]: '....x.......x...',
        [HAT]: 'x.o.x.o.x.o.x.o.',
      },
      fill: { [KICK]: 'X.....x.X.......', [CLAP]: '....x.......x.x.', [HAT]: 'x.o.x.o.x.o.x.o.', [CRASH]: '..............x.' },
    },
  },
  {
    musicId: 'bubbles',
    name: 'Bubbles',
    mood: 'playful',
    recommended: false,
    // G major with a bounce: marimba melody, nylon-guitar chops, a tuba bass, claps, tambourine and wood block.
    composition: {
      bpm: 120,
      chords: ['G', 'Em', 'C', 'D', 'G', 'Em', 'Am7', 'D7'],
      parts: [
        { role: 'chords', program: 24, pattern: 'x..xx.x.x..xx.x.', volume: 70, reverb: 40 },
        { role: 'lead', program: 12, pattern: '0.2.1.3.2.4.3.5.4.3.2.1.2.3.4...', octave: 5, volume: 85, reverb: 40 },
        { role: 'bass', program: 58, pattern: '1...5...1...5...', volume: 88 },
      ],
      drums: {
        [KICK]: 'X.......X.......',
        [CLAP]: '....x.......x...',
        [TAMBOURINE]: '..o...o...o...o.',
        [WOOD_BLOCK]: '......x.......x.',
      },
      fill: { [KICK]: 'X.......X.......', [CLAP]: '....x...x.x.x.x.', [TAMBOURINE]: 'x.x.x.x.x.x.x.x.' },
    },
  },
  {
    musicId: 'summit',
    name: 'Summit',
    mood: 'cinematic',
    recommended: false,
    // D minor, epic: string ensemble and horns, a piano ostinato, cellos pulsing eighths, timpani and toms.
    composition: {
      bpm: 90,
      chords: ['Dm', 'Bb', 'F', 'C', 'Dm', 'Bb', 'Gm', 'A'],
      parts: [
        { role: 'chords', program: 48, pattern: 'x---------------', volume: 90, reverb: 90 },
        { role: 'chords', program: 60, pattern: 'x-------x-------', volume: 58, reverb: 90 },
        { role: 'lead', program: 0, pattern: '0.1.2.1.0.1.2.1.', octave: 4, volume: 70, reverb: 70 },
        { role: 'bass', program: 42, pattern: '8.8.8.8.8.8.8.8.', volume: 95, reverb: 60 },
        { role: 'bass', program: 47, pattern: '1.......1...5...', octave: 2, volume: 92, reverb: 70 },
      ],
      drums: {
        [KICK]: 'X.....x.X.......',
        [LOW_TOM]: '....x.......x...',
        [CRASH]: 'o...............',
      },
      fill: { [KICK]: 'X.......X.......', [HIGH_TOM]: '....x.x.........', [MID_TOM]: '........x.x.....', [LOW_TOM]: '............xxxx' },
      kit: 48,
    },
  },
  {
    musicId: 'rainy',
    name: 'Rainy Window',
    mood: 'lo-fi',
    recommended: false,
    // Lo-fi hip hop in Eb: a warm Rhodes, upright bass, jazz-guitar licks, a lazy swung boom-bap beat.
    composition: {
      bpm: 78,
      chords: ['Ebmaj7', 'Cm7', 'Fm7', 'Bb7', 'Ebmaj7', 'Cm7', 'Abmaj7', 'Bb7'],
      parts: [
        { role: 'chords', program: 4, pattern: 'x-------.x------', volume: 88, reverb: 55 },
        { role: 'bass', program: 32, pattern: '1-----1.....5-..', volume: 105 },
        { role: 'lead', program: 26, pattern: '..2...1.3.....2.....3.2...1-....', octave: 4, volume: 66, reverb: 60 },
      ],
      drums: {
        [KICK]: 'X.......X.x.....',
        [SNARE]: '....X.......X...',
        [HAT]: 'o.o.o.o.o.o.o.oo',
      },
      kit: 8,
      swing: 0.35,
    },
  },
];

export const MUSIC: readonly MusicInfo[] = TRACKS.map(({ composition: _, ...info }) => info);

export function musicComposition(musicId: string): Composition {
  const found = TRACKS.find((t) => t.musicId === musicId);
  if (!found) throw new RangeError(`unknown music track ${musicId}`);
  return found.composition;
}
