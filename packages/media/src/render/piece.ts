/**
 * One piece of the video = one scene from the moment it is fully on screen until the next one is, including
 * the hand-over into the next scene at its end (a dissolve, a slide or a whip; nothing for a cut). Pieces are
 * independent ffmpeg runs (so both cores work) whose outputs join without re-encoding. Everything here is pure:
 * it turns numbers and paths into ffmpeg arguments.
 */
import { easedProgress, progressExpr } from './easing.js';
import { filterValue } from './filters.js';
import type { TransitionKind } from './look.js';
import type { SceneDrawing } from './scene/kind.js';
import { drawScene, type SceneSource } from './scene/kinds.js';
import type { Frame } from './scene/types.js';

export type { SceneSource } from './scene/kinds.js';
export type { Frame } from './scene/types.js';

export interface PieceJob {
  scene: SceneSource;
  /** Frames of the scene already shown (fading in) in the previous piece, where its motion continues from. */
  leadFrames: number;
  frames: number;
  /** The next scene, shown coming in over the last `transitionFrames` frames. */
  next?: SceneSource | undefined;
  transitionFrames: number;
  /** How the next scene comes in (decision "Transitions"); a crossfade ('dissolve') when not said. */
  transitionKind?: TransitionKind | undefined;
  /** The frame number of this piece's first frame in the whole video: subtitles are timed on the whole. */
  firstFrame: number;
  ass?: { file: string; fontsDir?: string | undefined } | undefined;
}

export interface Encoding {
  preset: string;
  crf: number;
  threads: number;
}

/**
 * The share of a slide or whip done `k` frames into a hand-over of `span` frames: the profile of the decision
 * "Smooth motion" with its ramps filling the span, so the push leaves and lands at rest and its speed follows one
 * raised cosine (twice the mean at the middle). Frame 0 still shows only the outgoing scene and frame `span`, the
 * next piece's first, only the incoming one, as with the dissolve.
 */
export function pushProgress(k: number, span: number): number {
  return easedProgress(k, span, span / 2);
}

/**
 * The whip's horizontal blur on each of its frames, as a Gaussian's sigma in luma pixels: the spread of the smear
 * a camera whose shutter stays open the whole frame would leave (the distance the picture travels in the frame's
 * time about it, over √12, a box of that length having this spread). Decision "Transitions".
 */
export function whipSigmas(span: number, width: number): number[] {
  return Array.from({ length: span }, (_, k) => (width * (pushProgress(k + 0.5, span) - pushProgress(k - 0.5, span))) / Math.sqrt(12));
}

/**
 * The graph pushing the outgoing scene (`[a]`, `frames` frames) out to the left while the incoming one (`[in]`,
 * its first `span` frames) comes in from the right, both at the same speed, so no empty band can show: each
 * transition frame is a window over the two side by side. The window is placed to the whole pixel (`crop` places
 * no finer, `overlay` only to 2 px in 4:2:0): at 1080 px over 0.36–0.4 s the steps are 7 to 238 px, and rounding
 * changes one by 5 % at most, the slowest (decision "Transitions"). Only the last `span` frames are touched: the body
 * (`[a]`, made `frames` − `span` long) passes through untouched, the outgoing scene's tail (`[tail]`) is drawn on from
 * where the body ends (from the body's own still where its kind can, else from an input of its own), and the two
 * parts are joined by `concat`. A split of one stream into body and tail
 * held every body frame queued for the tail's branch: 500–550 MB for a 1080p push-in against 300 MB for a dissolve. A whip blurs its frames along the
 * motion, each in proportion to its speed (`whipSigmas`); the half-width chroma planes by half as much, since
 * ffmpeg's blurs take one radius for every plane.
 */
function pushGraph(kind: 'slide' | 'whip', frames: number, span: number, frame: Frame): string {
  const { width: w, height: h } = frame;
  const body = frames - span;
  const x = `round(${w}*${progressExpr('n', span, span / 2)})`;
  // One blur per distinct strength, enabled on its frames only (the push is symmetric, so frames k and span − k
  // share one): gblur touches its buffer only while enabled, where each avgblur touched 33 MB at 1080×1920
  // however little it ran. sigmaV=0 blanks the picture, hence 0.01. Under 2 px the smear would not show.
  const strengths = new Map<string, number[]>();
  if (kind === 'whip') {
    for (const [k, sigma] of whipSigmas(span, w).entries()) {
      const key = sigma.toFixed(1);
      if (sigma >= 2) strengths.set(key, [...(strengths.get(key) ?? []), k]);
    }
  }
  const blur = [...strengths].flatMap(([sigma, ks]) => {
    const on = `enable='${ks.map((k) => `eq(n,${k})`).join('+')}'`;
    return [
      `gblur=sigma=${sigma}:sigmaV=0.01:steps=3:planes=1:${on}`,
      `gblur=sigma=${(Number(sigma) / 2).toFixed(1)}:sigmaV=0.01:steps=3:planes=6:${on}`,
    ];
  });
  const push = [`hstack=inputs=2`, `crop=${w}:${h}:x='${x}':y=0:exact=1`, ...blur].join(',');
  if (body <= 0) return `[tail][in]${push}[m]`;
  return [`[tail][in]${push}[pushed]`, '[a][pushed]concat=n=2:v=1:a=0[m]'].join(';');
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
  const kind = job.transitionKind ?? 'dissolve';
  // A cut hands over at the join itself: the next scene is not even opened.
  const handsOver = job.next !== undefined && job.transitionFrames > 0 && kind !== 'cut';
  const pushes = handsOver && (kind === 'slide' || kind === 'whip');
  const t = job.transitionFrames;
  const body = pushes ? job.frames - t : job.frames;
  // A push's tail is the same scene further on: drawn with the body where its kind can (one still, one stack).
  const tailAt = pushes ? { lead: job.leadFrames + body, frames: t, output: '[tail]' } : undefined;
  const own: SceneDrawing =
    body > 0
      ? drawScene(job.scene, { index: 0, lead: job.leadFrames, frames: body, frame, stillSize, output: '[a]', tail: tailAt })
      : { input: [], graph: '', inputs: 0 };
  const inputs = [...own.input];
  const graph = own.graph ? [own.graph] : [];
  let last = '[a]';
  if (job.next && handsOver) {
    // Inputs are numbered as they are added: the body's (if any), the next scene's, the push's tail.
    const incoming = drawScene(job.next, { index: own.inputs, lead: 0, frames: t, frame, stillSize, output: '[in]' });
    inputs.push(...incoming.input);
    graph.push(incoming.graph);
    if (kind === 'dissolve') {
      // Only the transition's frames are blended: the incoming scene exists just for them.
      graph.push(`[in]format=yuva420p,fade=t=in:s=0:n=${t}:alpha=1,setpts=PTS+${job.frames - t}/(${fps}*TB)[b]`);
      graph.push('[a][b]overlay=eof_action=pass:format=yuv420[m]');
    } else {
      if (!own.tail && tailAt) {
        const tail = drawScene(job.scene, { index: own.inputs + incoming.inputs, ...tailAt, frame, stillSize });
        inputs.push(...tail.input);
        graph.push(tail.graph);
      }
      graph.push(pushGraph(kind, job.frames, t, frame));
    }
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
    // The stream says what its pixels are, so players do not guess BT.601: the decision "BT.709 exports".
    '-colorspace',
    'bt709',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-color_range',
    'tv',
    '-an',
    out,
  ];
}
