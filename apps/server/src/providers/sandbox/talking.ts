// The sandbox's talking presenter: the portrait under the SANDBOX mark, drifting slowly, with the voice track as its
// sound and exactly its length. Nobody's lips move: it shows where a vendor's clip would go, never passes for one.
import { join } from 'node:path';
import { probe, runTool } from '@reelsmith/media';
import { mediaToolsOf } from '../../modules/files/workDir.js';
import type { Settings } from '../../settings.js';
import type { GenerationJob, TalkingAvatar, TalkingRequest } from '../provider.js';
import { sandboxVideo } from './video.js';

let count = 0;

export function sandboxTalking(settings: Settings): TalkingAvatar {
  const video = sandboxVideo(settings, 'portrait');
  return {
    name: 'sandbox',
    needs: ['ffmpeg'],
    async talk(request: TalkingRequest, job: GenerationJob) {
      const tools = mediaToolsOf(settings);
      const { duration } = await probe(tools, request.voice);
      const still = await video.generate(
        {
          image: request.image,
          prompt: request.prompt || 'talking presenter',
          duration: Number(duration.toFixed(3)),
          width: request.width,
          height: request.height,
          tier: 'std',
          soundEffect: false,
        },
        job,
      );
      const out = join(job.workDir, `sandbox-talking-${++count}.mp4`);
      // The stand-in's picture with the voice as its sound, cut to the voice's length.
      const inputs = [still, request.voice].flatMap((file) => ['-i', file]);
      const streams = ['-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k'];
      await runTool(tools.ffmpeg, ['-v', 'error', '-y', ...inputs, ...streams, '-t', duration.toFixed(3), '-movflags', '+faststart', out], {
        timeoutMs: 180_000,
        signal: job.signal,
      });
      return out;
    },
  };
}
