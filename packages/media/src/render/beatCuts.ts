/**
 * Cuts on the music's beats: the scene changes of an ad land on the beat of its track (decision "SoundFont music"),
 * as an editor cuts to music. Pure, beside the timeline it serves.
 */

/** How far (in beats on either side) a cut may look for its beat when the nearest ones would leave a scene too short. */
const REACH = [1, 2];

/** The beats nearest `at`: `reach` on each side, nearest first. */
function nearBeats(at: number, beats: number[], reach: number): number[] {
  const after = beats.findIndex((b) => b >= at);
  const from = after === -1 ? beats.length : after;
  return beats.slice(Math.max(0, from - reach), from + reach).sort((a, b) => Math.abs(a - at) - Math.abs(b - at));
}

/**
 * Moves each cut (ascending, between `start` and `end`) onto a beat, every span between cuts, `start` and `end`
 * at least `minGap` long, moving the cuts as little as possible (least squares, by dynamic programming over each
 * cut's nearest beats): a cut goes to its nearest beat, at most half a beat away, unless that would leave a scene
 * too short. Undefined when the beats cannot hold that many scenes.
 */
export function snapCuts(cuts: number[], beats: number[], start: number, end: number, minGap: number): number[] | undefined {
  if (cuts.length === 0) return [];
  for (const reach of REACH) {
    const candidates = cuts.map((cut) =>
      nearBeats(cut, beats, reach).filter((b) => b - start >= minGap - 1e-9 && end - b >= minGap - 1e-9),
    );
    // cost[i][j]: the least summed squared move of cuts 0..i with cut i on candidates[i][j]; from[i][j] its cut i-1.
    const cost: number[][] = [];
    const from: number[][] = [];
    candidates.forEach((options, i) => {
      cost[i] = [];
      from[i] = [];
      options.forEach((beat, j) => {
        const move = (beat - (cuts[i] as number)) ** 2;
        if (i === 0) {
          (cost[i] as number[])[j] = move;
          return;
        }
        let best = Number.POSITIVE_INFINITY;
        (candidates[i - 1] as number[]).forEach((previous, k) => {
          const before = (cost[i - 1] as number[])[k] as number;
          if (beat - previous >= minGap - 1e-9 && before < best) {
            best = before;
            (from[i] as number[])[j] = k;
          }
        });
        (cost[i] as number[])[j] = best + move;
      });
    });
    const last = cost.at(-1) as number[];
    let pick = last.indexOf(Math.min(...last));
    if (pick === -1 || !Number.isFinite(last[pick] as number)) continue;
    const snapped: number[] = [];
    for (let i = cuts.length - 1; i >= 0; i--) {
      snapped[i] = (candidates[i] as number[])[pick] as number;
      pick = (from[i] as number[])[pick] as number;
    }
    return snapped;
  }
  return undefined;
}

/** The last beat at or before `at`, so what follows it (the end card) is never shortened. */
export function beatAtOrBefore(at: number, beats: number[]): number | undefined {
  return beats.filter((b) => b <= at + 1e-9).at(-1);
}

/**
 * A scene from `start` (a beat) `seconds` long (ending on a beat) as shots that each start on a beat: as many as
 * its length needs at `maxShot` a shot, each at least `minShot` long, the beats shared out evenly. The scene as
 * one shot when its ends are not beats.
 */
export function shotsOnBeats(start: number, seconds: number, beats: number[], maxShot: number, minShot: number): number[] {
  const end = start + seconds;
  const inside = beats.filter((b) => b >= start - 1e-6 && b <= end + 1e-6);
  const spans = inside.length - 1;
  if (spans < 1 || Math.abs((inside[0] as number) - start) > 1e-3 || Math.abs((inside.at(-1) as number) - end) > 1e-3) return [seconds];
  const beat = seconds / spans;
  const perShot = Math.max(1, Math.ceil(minShot / beat - 1e-9));
  const count = Math.max(1, Math.min(Math.ceil(seconds / maxShot - 1e-9), Math.floor(spans / perShot)));
  const cuts = Array.from({ length: count + 1 }, (_, i) => inside[Math.round((i * spans) / count)] as number);
  cuts[0] = start;
  cuts[count] = end;
  return cuts.slice(1).map((cut, i) => cut - (cuts[i] as number));
}
