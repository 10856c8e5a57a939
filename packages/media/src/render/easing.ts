/**
 * How every move of the renderer speeds up and slows down (decision "Smooth motion"): a scene's camera move, a
 * clip's camera path and a push between scenes all follow one eased profile.
 */

/**
 * Every move starts and ends eased (the speed rises and falls along a half cosine over `ramp` frames) and runs at
 * one constant speed in between, so a viewer sees neither a jolt nor a speed change. This is the share of the move
 * done after `t` frames of `span`; `progressExpr` is the same in ffmpeg's expression language, and they must stay
 * the same function.
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
