import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { locateTools, type MediaTools } from '@reelsmith/media';
import type { Settings } from '../../settings.js';

/** Where files are checked before they are stored: in DATA_DIR, so a large video is not copied across disks. */
export const tmpDirOf = (dataDir: string) => join(dataDir, 'tmp');

/** Runs `work` in a fresh directory that is removed afterwards, whatever happened, so no temporary file outlives it. */
export async function withWorkDir<T>(settings: Settings, work: (dir: string) => Promise<T>): Promise<T> {
  const root = tmpDirOf(settings.dataDir);
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, 'work-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const located = new Map<string, MediaTools>();

/** ffmpeg and ffprobe as the settings name them, looked for once per process. */
export function mediaToolsOf(settings: Settings): MediaTools {
  const id = `${settings.ffmpegPath ?? ''}\n${settings.ffprobePath ?? ''}`;
  let tools = located.get(id);
  if (!tools) {
    tools = locateTools({ ffmpegPath: settings.ffmpegPath, ffprobePath: settings.ffprobePath });
    located.set(id, tools);
  }
  return tools;
}
