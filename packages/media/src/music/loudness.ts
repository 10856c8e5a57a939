import { execFile } from 'node:child_process';
import { MediaToolError } from '../run.js';
import { locateTools, type MediaTools } from '../tools.js';

export interface Loudness {
  /** Integrated loudness, LUFS (EBU R128, gated). */
  integrated: number;
  /** The highest true (inter-sample) peak, dBTP. */
  truePeak: number;
}

/** Measures a file with ffmpeg's EBU R128 meter, as the platforms' loudness normalisation reads it. */
export function measureLoudness(file: string, tools: MediaTools = locateTools()): Promise<Loudness> {
  return new Promise((resolve, reject) => {
    const args = ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'];
    // The meter writes its summary to stderr, which runTool does not return.
    execFile(tools.ffmpeg, args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, _stdout, stderr) => {
      const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
      const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
      const peak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
      if (error || integrated === undefined || peak === undefined) {
        reject(new MediaToolError(`ffmpeg could not measure the loudness of ${file}`, stderr.slice(-500)));
        return;
      }
      const value = (text: string) => (text === '-inf' ? Number.NEGATIVE_INFINITY : Number(text));
      resolve({ integrated: value(integrated), truePeak: value(peak) });
    });
  });
}
