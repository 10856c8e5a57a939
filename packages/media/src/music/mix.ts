import { runTool } from '../run.js';
import { locateTools, type MediaTools } from '../tools.js';

export interface MixOptions {
  /** The voice track (speakScript's voice.wav). */
  voice: string;
  /** The music bed, at least `seconds` long (musicBed). */
  music: string;
  /** The video's length: the voice is padded with silence or cut to it. */
  seconds: number;
  /** `.wav` gives 16-bit PCM; anything else AAC (e.g. `.m4a`). */
  outFile: string;
  tools?: MediaTools | undefined;
}

/** Loudness the mix is normalised to: what short-video platforms play at. */
export const MIX_LUFS = -16;

/**
 * The soundtrack of an ad: the music ducks under the voice (a sidechain compressor keyed by the voice, so it
 * only dips while someone speaks) and the whole is normalised to -16 LUFS with a -1.5 dBTP ceiling.
 */
export async function mixAudio({ voice, music, seconds, outFile, tools = locateTools() }: MixOptions): Promise<string> {
  const graph = [
    `[0:a]aformat=sample_rates=48000:channel_layouts=stereo,apad,atrim=0:${seconds},asplit=2[voice][key]`,
    `[1:a]aformat=sample_rates=48000:channel_layouts=stereo,atrim=0:${seconds},volume=0.45[bed]`,
    '[bed][key]sidechaincompress=threshold=0.02:ratio=8:attack=15:release=350[ducked]',
    // amix halves each input; loudnorm sets the final level either way.
    `[voice][ducked]amix=inputs=2:duration=first,loudnorm=I=${MIX_LUFS}:TP=-1.5:LRA=11,aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo[out]`,
  ].join(';');
  const codec = outFile.endsWith('.wav') ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'aac', '-b:a', '160k'];
  await runTool(
    tools.ffmpeg,
    ['-v', 'error', '-y', '-i', voice, '-i', music, '-filter_complex', graph, '-map', '[out]', '-t', String(seconds), ...codec, outFile],
    {
      timeoutMs: 120_000,
    },
  );
  return outFile;
}
