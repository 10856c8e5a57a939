/** A rendered video's picture as a viewer gets it: its frames counted by decoding them (not read off the header), and its size. */
import { runTool } from '../src/run.js';
import type { MediaTools } from '../src/tools.js';

export async function countedFrames(tools: MediaTools, file: string): Promise<{ frames: number; width: number; height: number }> {
  const out = await runTool(tools.ffprobe, [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames,width,height',
    '-of',
    'json',
    file,
  ]);
  const [stream] = (JSON.parse(out) as { streams: { nb_read_frames: string; width: number; height: number }[] }).streams;
  if (!stream) throw new Error(`${file} has no video stream`);
  return { frames: Number(stream.nb_read_frames), width: stream.width, height: stream.height };
}
