/**
 * Where the ffmpeg and ffprobe programs are (design "Dependencies tried"): an explicit path wins, then a program on PATH (a
 * system ffmpeg, e.g. Debian's 5.1, has the filters later renders need), then the binaries npm installed with
 * @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe, so `npm install && npm start` needs no apt.
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
  const found = onPath(name);
  if (found) return found;
  // The installer packages export the path of the binary of this platform, or throw when there is none.
  return (require(NPM_PACKAGES[name]) as { path: string }).path;
}

/** Finds both programs once; throws when one is named explicitly but is not there. */
export function locateTools(paths: ToolPaths = {}): MediaTools {
  return { ffmpeg: locate('ffmpeg', paths.ffmpegPath), ffprobe: locate('ffprobe', paths.ffprobePath) };
}
