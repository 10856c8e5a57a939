// Pixel sizes of the generation tools. Pictures: 1024 px on the long side (2048 at high quality), sides multiples
// of 16 as image models want them. Videos: 720 px on the short side for the standard tier, 1080 for pro, even sides.
export const RATIOS = { '9:16': [9, 16], '16:9': [16, 9], '1:1': [1, 1], '3:4': [3, 4], '4:3': [4, 3] } as const;
export type Ratio = keyof typeof RATIOS;

const roundTo = (value: number, multiple: number) => Math.max(multiple, Math.round(value / multiple) * multiple);

export function imageSize(ratio: Ratio, quality: 'standard' | 'high') {
  const [w, h] = RATIOS[ratio];
  const long = quality === 'high' ? 2048 : 1024;
  return w >= h ? { width: long, height: roundTo((long * h) / w, 16) } : { width: roundTo((long * w) / h, 16), height: long };
}

export function videoSize(ratio: Ratio, tier: 'std' | 'pro') {
  const [w, h] = RATIOS[ratio];
  const short = tier === 'pro' ? 1080 : 720;
  return w >= h ? { width: roundTo((short * w) / h, 2), height: short } : { width: short, height: roundTo((short * h) / w, 2) };
}

/** The ratio closest in shape to a picture's, for a video made from it. */
export function nearestRatioOf(width: number, height: number): Ratio {
  const target = Math.log(width / height);
  const distance = (r: Ratio) => Math.abs(Math.log(RATIOS[r][0] / RATIOS[r][1]) - target);
  return (Object.keys(RATIOS) as Ratio[]).sort((a, b) => distance(a) - distance(b))[0] as Ratio;
}
