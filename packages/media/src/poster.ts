import { stat } from 'node:fs/promises';
import { MediaToolError, type RunOptions, runTool } from './run.js';
import type { MediaTools } from './tools.js';

/**
 * Writes one frame of a video as a PNG (`out` should end in .png): the poster shown before it plays. The frame
 * is taken `atSeconds` in, which should lie inside the video (the first frames are often black). Decoding up to
 * there also proves the video's start is intact.
 */
export async function posterFrame(tools: MediaTools, video: string, out: string, atSeconds: number, options: RunOptions = {}) {
  await runTool(
    tools.ffmpeg,
    ['-v', 'error', '-y', '-ss', atSeconds.toFixed(3), '-i', video, '-frames:v', '1', '-an', '-f', 'image2', '-c:v', 'png', out],
    { timeoutMs: 60_000, ...options },
  );
  // ffmpeg exits 0 without writing anything when there is no frame at that time (a seek past the end).
  const written = await stat(out).catch(() => undefined);
  if (!written?.size) throw new MediaToolError(`ffmpeg found no frame ${atSeconds} s into the video`, '');
}
