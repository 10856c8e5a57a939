/// <reference path="./espeak-ng.d.ts" />
/**
 * eSpeak NG compiled to WebAssembly (npm `espeak-ng`, GPL-3.0-or-later): offline speech in English, Brazilian
 * and European Portuguese and Mandarin, with its voice data inside the module, so nothing is fetched at run time.
 * Debian's espeak-ng reads Mandarin wrong (design "Dependencies tried"), which is why the npm build is the engine.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ESpeakNg from 'espeak-ng';

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

/** Speaks `text` into a 16-bit mono WAV (22 050 Hz) and answers its bytes. */
export async function espeakWav(text: string, { voice, pitch, range, speed }: EspeakVoice): Promise<Uint8Array> {
  const module = await engine();
  const errors: string[] = [];
  let status = 0;
  // Each call is a fresh instance running eSpeak's command line once: its C state is global and not re-entrant.
  const instance = await ESpeakNg({
    arguments: ['-w', '/speech.wav', '-v', voice, '-p', String(pitch), '-P', String(range), '-s', String(speed), '--', text],
    instantiateWasm(imports, receive) {
      wasm.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
    print: () => {},
    printErr: (line) => errors.push(line),
    // Emscripten's default sets process.exitCode; the exit status is this call's business only.
    quit: (code) => {
      status = code;
    },
  });
  if (status !== 0)
    throw new SpeechEngineError(`espeak-ng failed (exit ${status}): ${errors.find((e) => e.startsWith('Error')) ?? errors.join(' ')}`);
  return instance.FS.readFile('/speech.wav');
}
