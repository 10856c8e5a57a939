// Failures that are neither the caller's nor a bug, nor an outage that passes: this machine lacks a part the work
// needs (decision "Start-up checks"). A program that cannot be started, the music's SoundFont, a file the install
// ships (a model, a font) gone: the user is told the server is misconfigured and whom to tell, instead of
// "Generation failed", and the operator finds the cause in the log beside the task's id.
import { MediaToolError, MusicSynthMissingError } from '@reelsmith/media';
import { codeOf, errorChain } from './errorChain.js';
import { AppError } from './errors.js';
import type { Part } from './parts.js';

/** A part the work found missing when it ran (mediaToolsOf, when ffmpeg cannot be located at all). */
export class PartMissingError extends Error {
  constructor(
    readonly part: Part,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'PartMissingError';
  }
}

/** A program that cannot be started: not there, not executable, or not a program this machine runs. */
const SPAWN_ERRNOS = new Set(['ENOENT', 'EACCES', 'ENOEXEC']);
/** A file that cannot be opened: not there, or not readable by the server's user. */
const OPEN_ERRNOS = new Set(['ENOENT', 'EACCES']);
/**
 * The exit statuses of a program that never ran its own code: the shell's and the dynamic loader's "cannot execute"
 * (126) and "not found" (127, also a missing shared library). ffmpeg itself exits 1 on a bad input.
 */
const NOT_RUN_STATUSES = /\(exit 12[67]\)/;

const fieldOf = (error: unknown, field: 'syscall' | 'path') => {
  const value = (error as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
};

function isMisconfigured(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (e instanceof PartMissingError || e instanceof MusicSynthMissingError) return true;
    const code = codeOf(e);
    if (typeof code !== 'string') {
      if (e instanceof MediaToolError && NOT_RUN_STATUSES.test(e.message)) return true;
      continue;
    }
    // execFile's system error: `spawn /usr/bin/ffmpeg`.
    if (SPAWN_ERRNOS.has(code) && fieldOf(e, 'syscall').startsWith('spawn')) return true;
    // A file the install ships (under node_modules: a model's chunk, a font): never the user's data, which lives
    // in DATA_DIR or the object store.
    if (OPEN_ERRNOS.has(code) && /[/\\]node_modules[/\\]/.test(fieldOf(e, 'path'))) return true;
    // A package of the install that does not load.
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') return true;
  }
  return false;
}

/** The user's error for a part this server lacks at run time; undefined for anything else. */
export function misconfiguredError(error: unknown): AppError | undefined {
  return isMisconfigured(error) ? new AppError('generationMisconfigured', {}, { cause: error }) : undefined;
}
