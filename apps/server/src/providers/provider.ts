// The capabilities link to video asks a provider for (design §6): the registry picks the local engine or a remote
// API for each from the settings, and the tasks do not know which one they got.
import type { ScriptBrief, ScriptVariant, Synthesizer } from '@reelsmith/media';

export interface ScriptWriter {
  /** `brief.count` distinct scripts (fewer when the writer has no more distinct ones), sized to the video length. */
  write(brief: ScriptBrief, signal?: AbortSignal): Promise<ScriptVariant[]>;
}

export interface Voice {
  /** Names the engine and its setup, so speech made by one engine (a cached sample) is never served for another. */
  engine: string;
  /** Speaks one line with a catalogue voice into a 16-bit PCM WAV; stops when `signal` aborts. */
  synthesizer(signal?: AbortSignal): Synthesizer;
}
