/**
 * One piece of the video = one scene from the moment it is fully on screen until the next one is, including
 * the hand-over into the next scene at its end (a dissolve, a slide or a whip; nothing for a cut). Pieces are
 * independent ffmpeg runs (so both cores work) whose outputs join without re-encoding. Everything here is pure:
 * it turns numbers and paths into ffmpeg arguments.
 */
import type { TransitionKind } from './look.js';
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
  /** The still's size, when it differs from the renderer's usual one (a wide photo kept wide to pan along). */
  size?: { width: number; height: number } | undefined;
  /** Where a clip is cropped to the frame's shape, about its subject (videoFraming.ts); the middle when absent. */
  focus?: { x: number; y: number } | undefined;
  /**
   * A set's product plane (a transparent PNG whose top-left corner stands at `left`, `top` of the still, then
   * the set's background): it holds still in the frame while the background pans behind it (decision
   * "Parallax"). Pans only.
   */
  product?: { file: string; left: number; top: number } | undefined;
}

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

/** Escapes a value for a filter option, then for the filter graph (ffmpeg's two quoting levels). */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/**
 * Every move starts and ends eased (the speed rises and falls along a half cosine over `ramp` frames) and runs at
 * one constant speed in between, so a viewer sees neither a jolt nor a speed change: see the decision "Smooth
 * motion". This is the share of the move done after `t` frames of `span`; `motionExpr` is the same in ffmpeg's
 * expression language, and they must stay the same function.
 */
export function easedProgress(t: number, span: number, ramp: number): number {
  if (span < 2) return 0;
  const r = Math.max(1, Math.min(ramp, span / 2));
  const run = span - r;
  const ramped = (u: number) => (u / 2 - (r / (2 * Math.PI)) * Math.sin((Math.PI * u) / r)) / run;
  const at = Math.min(span, Math.max(0, t));
  if (at < r) return ramped(at);
  if (at > span - r) return 1 - ramped(span - at);
  return (at - r / 2) / run;
}

/** `easedProgress` in ffmpeg's expression language: the share of the move done at frame expression `t`. */
export function progressExpr(t: string, span: number, ramp: number): string {
  if (span < 2) return '0';
  const r = Math.max(1, Math.min(ramp, span / 2));
  const run = span - r;
  const ramped = (u: string) => `((${u})/2-${r / (2 * Math.PI)}*sin(PI*(${u})/${r}))/${run}`;
  const at = `clip(${t},0,${span})`;
  return `if(lt(${at},${r}),${ramped(at)},if(gt(${at},${span - r}),1-${ramped(`${span}-${at}`)},(${at}-${r / 2})/${run}))`;
}

/** The eased ramps last about half a second: as long as a crossfade, so a scene mostly speeds up while it fades in. */
export const RAMP_SECONDS = 0.48;

/**
 * A pan places its window to 1/phases of 2 px: the still is stacked in `phases` copies, each shifted by 2/phases px
 * more (a two-tap blend, made once per piece), and each frame crops the copy whose shift matches. The crop
 * itself is free; the stack costs CPU and memory in proportion to the copies, so a pan gets as few as keep its
 * steps even: rounding to a step q varies a frame's displacement by q/√6, which at PAN_STEADINESS px-frames
 * over the pan's speed stays under about 7.5 % of it (decision "Smooth motion"). A 540p pan across the usual
 * margin (about 0.9 px a frame) takes all 12; a 1080p one 8 or 6; a pan along a wide photo 4.
 */
export const PAN_PHASES = 12;
const MIN_PAN_PHASES = 4;
const PAN_STEADINESS = 11;

/** The copies a pan moving `speed` px a frame in its steady part needs: an even number, 4 to PAN_PHASES. */
export function panPhases(speed: number): number {
  if (!(speed > 0)) return PAN_PHASES;
  return Math.min(PAN_PHASES, Math.max(MIN_PAN_PHASES, 2 * Math.ceil(PAN_STEADINESS / speed / 2)));
}

/** Half of `n`, rounded down to an even number: where a window across a still's margin sits, chroma aligned. */
const even = (n: number) => 2 * Math.floor(n / 4);

/**
 * Where a pan's product plane stands in the frame: where the pan's window shows it halfway through the move, so
 * the background slides behind it by as much each way (decision "Parallax").
 */
export function productPlace(
  motion: Motion,
  still: { width: number; height: number },
  frame: { width: number; height: number },
  product: { left: number; top: number },
): { x: number; y: number } {
  const vertical = motion === 'pan-up' || motion === 'pan-down';
  const window = vertical
    ? { x: even(still.width - frame.width), y: Math.round((still.height - frame.height) / 2) }
    : { x: Math.round((still.width - frame.width) / 2), y: even(still.height - frame.height) };
  return { x: product.left - window.x, y: product.top - window.y };
}

/** The two-tap 3×3 kernel shifting a plane by `steps` / `phases` px (−1 ≤ shift < 1). */
function shiftKernel(steps: number, phases: number, vertical: boolean): string {
  const taps = steps < 0 ? [-steps, phases + steps, 0] : [0, phases - steps, steps];
  return vertical ? `0 ${taps[0]} 0 0 ${taps[1]} 0 0 ${taps[2]} 0` : `0 0 0 ${taps.join(' ')} 0 0 0`;
}

/**
 * The graph turning the still at `input` into `frames` frames of its move at `output`, the window's place
 * computed per frame to a fraction of a pixel: the decision "Smooth motion". Pans crop from a stack of shifted
 * copies (free per frame); zooms resample with `perspective`, whose window has real-valued corners, and scale
 * at a constant rate in log terms, which the eye reads as a constant speed.
 */
export function motionGraph(
  source: SceneSource & { size: { width: number; height: number } },
  lead: number,
  frames: number,
  frame: Frame,
  input: string,
  output: string,
): string {
  const { width: w, height: h, fps } = frame;
  const { width: W, height: H } = source.size;
  const span = Math.max(1, source.motionFrames - 1);
  const ramp = Math.round(RAMP_SECONDS * fps);
  const loop = `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB`;
  const motion = source.motion;
  if (motion === 'zoom-in' || motion === 'zoom-out') {
    const p = progressExpr(`in+${lead}`, span, ramp);
    // The widest window of the frame's shape inside the still, down to one still pixel per frame pixel.
    const wide = Math.min(W / w, H / h);
    const zoom = `pow(${wide},${motion === 'zoom-in' ? p : `1-${p}`})`;
    const ww = `(${(w * wide).toFixed(3)}/${zoom})`;
    const wh = `(${(h * wide).toFixed(3)}/${zoom})`;
    const x0 = `(${W / 2}-${ww}/2)`;
    const y0 = `(${H / 2}-${wh}/2)`;
    // perspective's output is the input's size: the quad is the window grown so that the window itself lands
    // on the top-left frame, which the crop keeps.
    const x1 = `(${x0}+${ww}*${W / w})`;
    const y1 = `(${y0}+${wh}*${H / h})`;
    return `${input}${loop},perspective=x0='${x0}':y0='${y0}':x1='${x1}':y1='${y0}':x2='${x0}':y2='${y1}':x3='${x1}':y3='${y1}':eval=frame,crop=${w}:${h}:0:0${output}`;
  }
  if (motion === 'none') return `${input}${loop},crop=${w}:${h}:${even(W - w)}:${even(H - h)}${output}`;
  const vertical = motion === 'pan-up' || motion === 'pan-down';
  const travel = vertical ? H - h : W - w;
  const p = progressExpr(`n+${lead}`, span, ramp);
  const along = motion === 'pan-right' || motion === 'pan-down' ? `${travel}*${p}` : `${travel}*(1-${p})`;
  const phases = panPhases(travel / (span - Math.max(1, Math.min(ramp, span / 2))));
  // In units of 1/phases of 2 px from one before the start: an even whole part keeps the chroma aligned.
  // A piece may hold several moves (its own, the next scene's, a push's tail): their labels are their own.
  const tag = output.replace(/\W/g, '');
  const steps = `round((${along}+1)*${phases / 2})`;
  const whole = `2*trunc(${steps}/${phases})`;
  const phase = `mod(${steps},${phases})`;
  const copies = Array.from({ length: phases }, (_, k) => {
    const luma = shiftKernel(2 * k - phases, phases, vertical);
    const chroma = shiftKernel(k - phases / 2, phases, vertical);
    const rdiv = `1/${phases}`;
    return `[ph${tag}_${k}]convolution=0m='${luma}':1m='${chroma}':2m='${chroma}':0rdiv=${rdiv}:1rdiv=${rdiv}:2rdiv=${rdiv}[sh${tag}_${k}]`;
  });
  const labels = (prefix: string) => Array.from({ length: phases }, (_, k) => `[${prefix}${tag}_${k}]`).join('');
  // Only the band the window travels along is shifted and stacked (the kernel never reaches across it): a tenth
  // less to convolve and to hold than the whole still.
  const band = vertical ? `crop=${w}:${H}:${even(W - w)}:0` : `crop=${W}:${h}:0:${even(H - h)}`;
  const crop = vertical ? `crop=${w}:${h}:x='${w}*${phase}':y='${whole}':exact=1` : `crop=${w}:${h}:x='${whole}':y='${h}*${phase}':exact=1`;
  return [
    `${input}${band},split=${phases}${labels('ph')}`,
    ...copies,
    `${labels('sh')}${vertical ? 'hstack' : 'vstack'}=inputs=${phases},${loop},${crop}${output}`,
  ].join(';');
}

/**
 * The whole-pixel moves of image → video (render/clip), a single filter chain: the ads' renderer uses
 * `motionGraph` instead. Pans are a crop whose corner follows the frame number, which
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

/** Pictures leave here as BT.709 (limited range), tagged so: the decision "BT.709 exports". */
export const BT709 =
  'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p,setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709';

/**
 * Input arguments and the graph turning the scene's inputs, numbered from `index` (a still or clip, then a set's
 * product plane), into `frames` frames of the scene at `output`; `inputs` is how many it opened.
 */
function sceneGraph(
  source: SceneSource,
  index: number,
  lead: number,
  frames: number,
  frame: Frame,
  stillSize: { width: number; height: number },
  output: string,
): { input: string[]; graph: string; inputs: number } {
  const { width: w, height: h, fps } = frame;
  if (source.kind === 'video') {
    // Clips loop when shorter than their slot; frames past the slot are never decoded (-frames on the output).
    const skip = lead / fps;
    const focus = source.focus ?? { x: 0.5, y: 0.5 };
    return {
      input: ['-stream_loop', '-1', '-ss', skip.toFixed(3), '-i', source.file],
      inputs: 1,
      graph: `[${index}:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h}:'(iw-ow)*${focus.x.toFixed(4)}':'(ih-oh)*${focus.y.toFixed(4)}',setsar=1,fps=${fps},${BT709},trim=end_frame=${frames},setpts=N/${fps}/TB${output}`,
    };
  }
  // The still is decoded and converted once, then the same frame is repeated: no per-frame JPEG decode.
  const still = `[still${index}]`;
  const size = source.size ?? stillSize;
  const moved = motionGraph({ ...source, size }, lead, frames, frame, still, `[moved${index}]`);
  const product = source.motion.startsWith('pan-') ? source.product : undefined;
  if (!product) {
    return {
      input: ['-framerate', String(fps), '-i', source.file],
      inputs: 1,
      graph: `[${index}:v]${BT709}${still};${moved};[moved${index}]setsar=1${output}`,
    };
  }
  // The product plane is one picture, converted once and laid over every frame where it stands (overlay repeats
  // a finished input's last frame); only its own box is blended.
  const at = productPlace(source.motion, size, frame, product);
  return {
    input: ['-framerate', String(fps), '-i', source.file, '-i', product.file],
    inputs: 2,
    graph: [
      `[${index}:v]${BT709}${still}`,
      moved,
      `[${index + 1}:v]scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[product${index}]`,
      `[moved${index}][product${index}]overlay=x=${at.x}:y=${at.y}:format=yuv420:eof_action=repeat,setsar=1${output}`,
    ].join(';'),
  };
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
 * (`[a]`, made `frames` − `span` long) passes through untouched, the outgoing scene's tail (`[tail]`) is made by its own
 * input from where the body ends, and the two parts are joined by `concat`. A split of one stream into body and tail
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
  const own = body > 0 ? sceneGraph(job.scene, 0, job.leadFrames, body, frame, stillSize, '[a]') : { input: [], graph: '', inputs: 0 };
  const inputs = [...own.input];
  const graph = own.graph ? [own.graph] : [];
  let last = '[a]';
  if (job.next && handsOver) {
    // Inputs are numbered as they are added: the body's (if any), the next scene's, the push's tail.
    const incoming = sceneGraph(job.next, own.inputs, 0, t, frame, stillSize, '[in]');
    inputs.push(...incoming.input);
    graph.push(incoming.graph);
    if (kind === 'dissolve') {
      // Only the transition's frames are blended: the incoming scene exists just for them.
      graph.push(`[in]format=yuva420p,fade=t=in:s=0:n=${t}:alpha=1,setpts=PTS+${job.frames - t}/(${fps}*TB)[b]`);
      graph.push('[a][b]overlay=eof_action=pass:format=yuv420[m]');
    } else {
      const tail = sceneGraph(job.scene, own.inputs + incoming.inputs, job.leadFrames + body, t, frame, stillSize, '[tail]');
      inputs.push(...tail.input);
      graph.push(tail.graph, pushGraph(kind, job.frames, t, frame));
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
