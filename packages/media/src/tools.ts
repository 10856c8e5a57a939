/**
 * Where the ffmpeg and ffprobe programs are (design "Dependencies tried"): an explicit path wins, then the binaries
 * npm installed with @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe, then a program on PATH for a platform
 * npm has none for. The bundled build comes before a system one (decision "The bundled ffmpeg first"): it draws the
 * same frames (decision "Both ffmpeg builds"), starts in a twentieth of the time of Debian's shared build, and an ad
 * runs ffmpeg some twenty times.
 */
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export interface ToolPaths {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
}

const require = createRequire(import.meta.url);

const NPM_PACKAGES = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' } as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the PATH directories, like a shell would find it. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

function locate(name: keyof typeof NPM_PACKAGES, explicit: string | undefined): string {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`${name} was set to ${explicit}, which is not an executable program`);
    return explicit;
  }
  const bundled = npmBinary(name);
  if (bundled) return bundled;
  const found = onPath(name);
  if (found) return found;
  throw new Error(`no ${name} found: npm has no build of ${NPM_PACKAGES[name]} for this platform and none is on PATH`);
}

/** The binary npm installed for this platform, if it has one (the installer packages throw when they have none). */
function npmBinary(name: keyof typeof NPM_PACKAGES): string | undefined {
  try {
    const { path } = require(NPM_PACKAGES[name]) as { path: string };
    return isExecutable(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Finds both programs once; throws when one is named explicitly but is not there. */
export function locateTools(paths: ToolPaths = {}): MediaTools {
  return { ffmpeg: locate('ffmpeg', paths.ffmpegPath), ffprobe: locate('ffprobe', paths.ffprobePath) };
}
