/**
 * Renders MIDI with FluidSynth and the FluidR3 General MIDI SoundFont, both Debian packages (`fluidsynth`,
 * `fluid-soundfont-gm`): real instrument samples, offline, nothing fetched at run time (decision "SoundFont music").
 */
import { existsSync } from 'node:fs';
import { runTool } from '../run.js';
import { onPath } from '../tools.js';
import { MUSIC_RATE } from './beats.js';

/** Where Debian's fluid-soundfont-gm puts the SoundFont (MIT licence). */
export const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';
/** FluidSynth's master gain: several parts at full velocity stay under 16-bit full scale; the loop is levelled after. */
const GAIN = 0.35;

/** FluidSynth or the SoundFont is not installed: the music cannot be made, and no stand-in is played instead. */
export class MusicSynthMissingError extends Error {
  constructor(what: string) {
    super(
      `${what} is missing: music is rendered with FluidSynth; install the Debian packages: apt-get install fluidsynth fluid-soundfont-gm`,
    );
    this.name = 'MusicSynthMissingError';
  }
}

/** The fluidsynth program and the SoundFont, or a MusicSynthMissingError naming the Debian packages. */
export function locateSynth(): { fluidsynth: string; soundfont: string } {
  const fluidsynth = onPath('fluidsynth');
  if (!fluidsynth) throw new MusicSynthMissingError('fluidsynth');
  if (!existsSync(SOUNDFONT)) throw new MusicSynthMissingError(SOUNDFONT);
  return { fluidsynth, soundfont: SOUNDFONT };
}

/** Renders a MIDI file to a 16-bit stereo WAV at MUSIC_RATE, faster than real time and without an audio device. */
export async function renderMidi(midiFile: string, wavFile: string): Promise<string> {
  const { fluidsynth, soundfont } = locateSynth();
  await runTool(fluidsynth, [
    ...['-n', '-i', '-q', '-g', String(GAIN), '-r', String(MUSIC_RATE)],
    // Chorus off: FluidSynth's chorus on FluidR3's synth and brass patches is largely in antiphase (Spark's channels
    // correlated -0.22 with it, 0.81 without; 4.1 dB lost in mono against 0.4), and phones often play in mono.
    // Only the samples the file plays are read, not all 148 MB.
    ...['-C', '0', '-o', 'synth.dynamic-sample-loading=1', '-T', 'wav', '-O', 's16', '-F', wavFile, soundfont, midiFile],
  ]);
  return wavFile;
}
