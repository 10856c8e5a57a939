// Sandbox text → video and image → video: a real MP4 of the asked size and duration, a slow pan over a picture
// (drawn from the prompt, or the given still) under the SANDBOX mark, with a tone when sound effects are asked for.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '@reelsmith/media';
import sharp from 'sharp';
import { mediaToolsOf } from '../../modules/files/workDir.js';
import type { Settings } from '../../settings.js';
import type { GenerationJob, ImageToVideo, TextToVideo, VideoRequest } from '../provider.js';
import { sandboxBackground, sandboxOverlay } from './marks.js';

const FPS = 25;
/** The picture is this much larger than the frame, so the frame can travel across it. */
const TRAVEL = 1.25;

let count = 0;

/**
 * `pan` travels across the picture corner to corner; `portrait` keeps a presenter's head in frame, the picture's top
 * kept and the frame drifting only a little down and to the middle (the talking stand-in's).
 */
export type SandboxMotion = 'pan' | 'portrait';

export function sandboxVideo(settings: Settings, motion: SandboxMotion = 'pan'): TextToVideo & ImageToVideo {
  return {
    name: 'sandbox',
    needs: ['ffmpeg'],
    async generate(request: VideoRequest, job: GenerationJob) {
      const { width, height, duration } = request;
      const tools = mediaToolsOf(settings);
      const id = ++count;
      const bigW = Math.round(width * TRAVEL);
      const bigH = Math.round(height * TRAVEL);
      const base = join(job.workDir, `sandbox-base-${id}.png`);
      const source = request.image
        ? sharp(request.image)
            .rotate()
            .resize(bigW, bigH, { fit: 'cover', position: motion === 'portrait' ? 'north' : 'centre' })
        : sharp(sandboxBackground(bigW, bigH, request.prompt ?? ''));
      await source.png().toFile(base);
      const overlay = join(job.workDir, `sandbox-mark-${id}.png`);
      await writeFile(overlay, await sandboxOverlay(width, height, request.prompt || 'image to video'));
      await job.progress('animating');
      const out = join(job.workDir, `sandbox-${id}.mp4`);
      const pan =
        motion === 'portrait'
          ? `crop=${width}:${height}:x='(iw-ow)/2':y='(ih-oh)*0.2*t/${duration}'`
          : `crop=${width}:${height}:x='(iw-ow)*t/${duration}':y='(ih-oh)*(1-t/${duration})'`;
      const args = [
        '-v',
        'error',
        '-y',
        '-loop',
        '1',
        '-framerate',
        String(FPS),
        '-i',
        base,
        '-loop',
        '1',
        '-framerate',
        String(FPS),
        '-i',
        overlay,
      ];
      if (request.soundEffect) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${duration}`);
      args.push('-filter_complex', `[0:v]${pan}[bg];[bg][1:v]overlay=0:0,format=yuv420p[v]`, '-map', '[v]');
      if (request.soundEffect) args.push('-map', '2:a', '-c:a', 'aac', '-b:a', '96k');
      args.push(
        '-t',
        String(duration),
        '-r',
        String(FPS),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '28',
        '-movflags',
        '+faststart',
        out,
      );
      await runTool(tools.ffmpeg, args, { timeoutMs: 180_000, signal: job.signal });
      return out;
    },
  };
}
