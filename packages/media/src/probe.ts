import { type RunOptions, runTool } from './run.js';
import type { MediaTools } from './tools.js';

export interface ProbedStream {
  type: string;
  codec: string;
  width?: number;
  height?: number;
}

export interface Probe {
  /** ffprobe's demuxer names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  formatName: string;
  /** Seconds; 0 when the container does not say. */
  duration: number;
  /** The first video stream's size, as displayed (a 90° rotation swaps the sides); 0 without video. */
  width: number;
  height: number;
  streams: ProbedStream[];
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
}

/** Reads a media file's container and streams with ffprobe; a file ffprobe cannot read rejects (MediaToolError). */
export async function probe(tools: MediaTools, file: string, options: RunOptions = {}): Promise<Probe> {
  const out = await runTool(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    timeoutMs: 30_000,
    ...options,
  });
  const json = JSON.parse(out) as FfprobeJson;
  const streams = (json.streams ?? []).map((s) => ({
    type: s.codec_type ?? 'unknown',
    codec: s.codec_name ?? 'unknown',
    ...(s.width !== undefined && { width: s.width }),
    ...(s.height !== undefined && { height: s.height }),
  }));
  const video = json.streams?.find((s) => s.codec_type === 'video');
  const rotation = Math.abs(Number(video?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video?.tags?.rotate ?? 0));
  const turned = rotation % 180 === 90;
  const duration = Number(json.format?.duration);
  return {
    formatName: json.format?.format_name ?? '',
    duration: Number.isFinite(duration) ? duration : 0,
    width: (turned ? video?.height : video?.width) ?? 0,
    height: (turned ? video?.width : video?.height) ?? 0,
    streams,
  };
}
