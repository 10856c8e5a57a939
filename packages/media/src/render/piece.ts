/**
 * One piece of the video = one scene from the moment it is fully on screen until the next one is, including
 * the crossfade into the next scene at its end. Pieces are independent ffmpeg runs (so both cores work) whose
 * outputs join without re-encoding. Everything here is pure: it turns numbers and paths into ffmpeg arguments.
 */
import type { Motion } from './timeline.js';

export interface Frame {
  width: number;
  height: number;
  fps: number;
}

/** A scene's picture source, ready for ffmpeg: a pre-scaled still or a clip. */
export interface SceneSource {
  kind: 'image' | 'video';
  file: string;
  motion: Motion;
  /** Frames the scene's motion spans in all (its fade-in in the piece before, plus its own piece). */
  motionFrames: number;
}

export interface PieceJob {
  scene: SceneSource;
  /** Frames of the scene already shown (fading in) in the previous piece, where its motion continues from. */
  leadFrames: number;
  frames: number;
  /** The next scene, shown fading in over the last `transitionFrames` frames. */
  next?: SceneSource | undefined;
  transitionFrames: number;
  /** The frame number of this piece's first frame in the whole video: subtitles are timed on the whole. */
  firstFrame: number;
  ass?: { file: string; fontsDir?: string | undefined } | undefined;
}

export interface Encoding {
  preset: string;
  crf: number;
  threads: number;
}

/** Escapes a value for a filter option, then for the filter graph (ffmpeg's two quoting levels). */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/**
 * The filters moving a crop window over a still. Pans are a crop whose corner follows the frame number, which
 * costs nothing; zooms use zoompan at the output size on the pre-scaled still (ffmpeg 4.1's crop cannot change
 * size per frame), so its scaling works on frame-sized pictures, never on the original photo.
 */
export function motionFilter(source: SceneSource, lead: number, frame: Frame, inputSize: { width: number; height: number }): string {
  const { width: w, height: h, fps } = frame;
  const progress = `((n+${lead})/${Math.max(1, source.motionFrames - 1)})`;
  const dx = inputSize.width - w;
  const dy = inputSize.height - h;
  const pan = (x: string, y: string) => `crop=${w}:${h}:x='${x}':y='${y}':exact=1`;
  const maxZoom = (inputSize.width / w).toFixed(4);
  const zoom = (z: string) => `zoompan=z='${z}':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=${w}x${h}:fps=${fps}`;
  const zoomProgress = progress.replaceAll('n+', 'on+');
  switch (source.motion) {
    case 'pan-right':
      return pan(`${dx}*${progress}`, `${dy / 2}`);
    case 'pan-left':
      return pan(`${dx}*(1-${progress})`, `${dy / 2}`);
    case 'pan-down':
      return pan(`${dx / 2}`, `${dy}*${progress}`);
    case 'pan-up':
      return pan(`${dx / 2}`, `${dy}*(1-${progress})`);
    case 'zoom-in':
      return zoom(`1+(${maxZoom}-1)*${zoomProgress}`);
    case 'zoom-out':
      return zoom(`${maxZoom}-(${maxZoom}-1)*${zoomProgress}`);
    case 'none':
      return pan(`${dx / 2}`, `${dy / 2}`);
  }
}

/** Input arguments and the filter chain turning input `index` into `frames` frames of the scene. */
function sceneChain(
  source: SceneSource,
  index: number,
  lead: number,
  frames: number,
  frame: Frame,
  stillSize: { width: number; height: number },
): { input: string[]; chain: string } {
  const { width: w, height: h, fps } = frame;
  if (source.kind === 'video') {
    // Clips loop when shorter than their slot; frames past the slot are never decoded (-frames on the output).
    const skip = lead / fps;
    return {
      input: ['-stream_loop', '-1', '-ss', skip.toFixed(3), '-i', source.file],
      chain: `[${index}:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1,fps=${fps},format=yuv420p,trim=end_frame=${frames},setpts=N/${fps}/TB`,
    };
  }
  // The still is decoded and converted once, then the same frame is repeated: no per-frame JPEG decode.
  return {
    input: ['-framerate', String(fps), '-i', source.file],
    chain: `[${index}:v]format=yuv420p,loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB,${motionFilter(source, lead, frame, stillSize)},setsar=1,format=yuv420p`,
  };
}

/** The ffmpeg arguments rendering one piece to `out` (an MP4 without audio). */
export function pieceArgs(
  job: PieceJob,
  frame: Frame,
  stillSize: { width: number; height: number },
  encoding: Encoding,
  out: string,
): string[] {
  const { fps } = frame;
  const own = sceneChain(job.scene, 0, job.leadFrames, job.frames, frame, stillSize);
  const inputs = [...own.input];
  const graph = [`${own.chain}[a]`];
  let last = '[a]';
  if (job.next && job.transitionFrames > 0) {
    const t = job.transitionFrames;
    const incoming = sceneChain(job.next, 1, 0, t, frame, stillSize);
    inputs.push(...incoming.input);
    // Only the transition's frames are blended: the incoming scene exists just for them.
    graph.push(`${incoming.chain},format=yuva420p,fade=t=in:s=0:n=${t}:alpha=1,setpts=PTS+${job.frames - t}/(${fps}*TB)[b]`);
    graph.push('[a][b]overlay=eof_action=pass:format=yuv420[m]');
    last = '[m]';
  }
  if (job.ass) {
    const fonts = job.ass.fontsDir ? `:fontsdir=${filterValue(job.ass.fontsDir)}` : '';
    // Timestamps of the whole video while the subtitles are drawn, then back to the piece's own from zero.
    graph.push(
      `${last}setpts=PTS-STARTPTS+${job.firstFrame}/(${fps}*TB),ass=filename=${filterValue(job.ass.file)}${fonts},setpts=PTS-STARTPTS[s]`,
    );
    last = '[s]';
  }
  return [
    '-v',
    'error',
    '-y',
    '-filter_complex_threads',
    '1',
    ...inputs,
    '-filter_complex',
    graph.join(';'),
    '-map',
    last,
    '-frames:v',
    String(job.frames),
    '-r',
    String(fps),
    '-c:v',
    'libx264',
    '-preset',
    encoding.preset,
    '-crf',
    String(encoding.crf),
    // Diamond search and the cheapest subpixel pass cut x264's time by a quarter here for the same size: the
    // slow, even pans and zooms of a still need no wide search. mbtree and lookahead stay, they halve the size.
    '-x264-params',
    'me=dia:subme=1',
    '-threads',
    String(encoding.threads),
    '-pix_fmt',
    'yuv420p',
    '-an',
    out,
  ];
}
