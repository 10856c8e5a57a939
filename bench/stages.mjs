// The seconds each stage of one ad took, from composeAd's progress callback: `mark` is the callback (and, called
// with nothing after the ad, closes the last stage); `stages` maps each stage to its seconds.
export function stageClock() {
  const stages = {};
  let stage;
  let at = performance.now();
  const mark = (next) => {
    const now = performance.now();
    if (stage) stages[stage] = (now - at) / 1000;
    stage = next;
    at = now;
  };
  return { stages, mark };
}
