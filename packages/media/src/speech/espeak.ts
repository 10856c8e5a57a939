/// <reference path="./espeak-ng.d.ts" />
/**
 * eSpeak NG compiled to WebAssembly (npm `espeak-ng`, GPL-3.0-or-later): offline speech in English, Brazilian
 * and European Portuguese and Mandarin, with its voice data inside the module, so nothing is fetched at run time.
 * Debian's espeak-ng reads Mandarin wrong (design "Dependencies tried"), which is why the npm build is the engine.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ESpeakNg, { type ESpeakNgInstance } from 'espeak-ng';

/** The two WebAssembly calls used here; Node has them, but its types (without the DOM library) do not declare them. */
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}

export interface EspeakVoice {
  /** eSpeak voice and variant, e.g. "en-us+f3". */
  voice: string;
  /** Base pitch 0–99 (eSpeak's default 50). */
  pitch: number;
  /** Pitch range 0–99 (eSpeak's default 50): how far the intonation moves; more is livelier, too much sings. */
  range: number;
  /** Words a minute. */
  speed: number;
}

/** eSpeak cannot read text given to it: a synthesis that fails is the server's fault, not the script's. */
export class SpeechEngineError extends Error {
  override name = 'SpeechEngineError';
}

let compiled: Promise<object> | undefined;

/** Compiling the 18 MB module takes a while; every synthesis after the first reuses it. */
function engine(): Promise<object> {
  compiled ??= readFile(join(dirname(createRequire(import.meta.url).resolve('espeak-ng')), 'espeak-ng.wasm')).then((bytes) =>
    wasm.compile(bytes),
  );
  return compiled;
}

/** An instance made and not yet run: its voice data unpacked, its command line still to come. */
interface Ready {
  instance: ESpeakNgInstance;
  /** The module's own exports, for the memory the command line is written into. */
  malloc: (bytes: number) => number;
  errors: string[];
  status: { code: number };
}

/** Makes an instance whose command line has not run (unpacking its voice data is most of a line's time). */
async function prepare(): Promise<Ready> {
  const module = await engine();
  const errors: string[] = [];
  const status = { code: 0 };
  let malloc: Ready['malloc'] | undefined;
  const instance = await ESpeakNg({
    noInitialRun: true,
    instantiateWasm(imports, receive) {
      wasm.instantiate(module, withFixedClock(imports)).then((made) => {
        malloc = (made as { exports: { malloc: Ready['malloc'] } }).exports.malloc;
        receive(made, module);
      });
      return {};
    },
    print: () => {},
    printErr: (line) => errors.push(line),
    // Emscripten's default sets process.exitCode; the exit status is this call's business only.
    quit: (code) => {
      status.code = code;
    },
  });
  if (!malloc) throw new SpeechEngineError('espeak-ng started without its exports');
  return { instance, malloc, errors, status };
}

/**
 * The module's imports with its calendar clock stopped at the epoch. eSpeak seeds the random jitter of its voice
 * variants ("+f3") from `time()`: a line said in another second came out different (decision "Voices and word
 * timings"); with one seed it is the same every time.
 */
function withFixedClock(imports: object): object {
  const { env } = imports as { env: Record<string, unknown> };
  return { ...imports, env: { ...env, emscripten_date_now: () => 0 } };
}

/**
 * The instance the next line runs on, made while the line before it was polished (decision "Voices and word
 * timings": a fresh one per line, as its C state is global and not re-entrant). Dropped when a line finds none.
 */
let spare: Promise<Ready> | undefined;

const encoder = new TextEncoder();

/** Runs eSpeak's command line once on an instance that has not run it: `main(argc, argv)`. */
function runMain({ instance, malloc }: Ready, args: string[]): void {
  const argv = ['espeak-ng', ...args].map((arg) => {
    const bytes = encoder.encode(`${arg}\0`);
    const at = malloc(bytes.length);
    instance.HEAPU8.set(bytes, at);
    return at;
  });
  const table = malloc((argv.length + 1) * 4);
  instance.HEAPU32.set([...argv, 0], table / 4);
  instance._main(argv.length, table);
}

/**
 * Compiles the module and makes the first line's instance now: a worker does it at start, so the first preview
 * does not wait for it (about 2.5 s on a 2-core machine).
 */
export async function warmSpeech(): Promise<void> {
  await (spare ?? makeSpare());
}

/** Starts making the next line's instance; one that fails is forgotten, and the line makes its own. */
function makeSpare(): Promise<Ready> {
  const made = prepare();
  spare = made;
  made.catch(() => {
    if (spare === made) spare = undefined;
  });
  return made;
}

/** Speaks `text` into a 16-bit mono WAV (22 050 Hz) and answers its bytes. */
export async function espeakWav(text: string, { voice, pitch, range, speed }: EspeakVoice): Promise<Uint8Array> {
  // The spare is taken at once, before any await, so two lines asked for together never share an instance: the
  // second makes its own.
  const taken = spare;
  spare = undefined;
  // A spare that failed to start is not this line's failure: it makes its own.
  const ready = await (taken ? taken.catch(() => prepare()) : prepare());
  // The next line's instance is unpacked while this one is polished; the last one of a script waits, unused.
  if (!spare) makeSpare();
  const args = ['-w', '/speech.wav', '-v', voice, '-p', String(pitch), '-P', String(range), '-s', String(speed), '--', text];
  try {
    runMain(ready, args);
  } catch (error) {
    // A trap or an exit the module threw rather than returned.
    if (ready.status.code === 0) throw new SpeechEngineError(`espeak-ng failed: ${(error as Error).message}`);
  }
  const { errors, status } = ready;
  if (status.code !== 0)
    throw new SpeechEngineError(`espeak-ng failed (exit ${status.code}): ${errors.find((e) => e.startsWith('Error')) ?? errors.join(' ')}`);
  return ready.instance.FS.readFile('/speech.wav');
}
