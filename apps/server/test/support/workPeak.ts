// The worst input each local picture tool accepts (decision "Bounded work"), run in a child process of its own
// (workPeakChild.ts) so that its peak memory is its own: how long it took, the process's peak resident memory
// (Node, sharp and, for the cut-out tools, the model a server keeps loaded) and the part the task itself added.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENHANCE_MAX_LONG_SIDE } from '@reelsmith/contract';
import { WORK_LIMITS } from '@reelsmith/media';
import { grainPhoto } from '@reelsmith/media/fixtures';
import sharp from 'sharp';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'workPeakChild.ts');

export interface WorkPeak {
  tool: string;
  /** The largest accepted input, in words. */
  input: string;
  ms: number;
  /** The child's peak resident memory, MB. */
  peakMb: number;
  /** What the task added over the warmed process, MB. */
  taskMb: number;
}

/** A product shot of any size: a bottle on a beige backdrop, drawn small and laid on a canvas of the size. */
async function productShot(path: string, width: number, height: number) {
  const side = Math.round(Math.min(width, height) * 0.6);
  const bottle = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 1024 1024"><rect x="380" y="250" width="260" height="560" rx="60" fill="#2a6bd1"/><rect x="440" y="180" width="140" height="90" fill="#333"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
  await sharp({ create: { width, height, channels: 3, background: '#d8d2c4' } })
    .composite([{ input: bottle, gravity: 'centre' }])
    .jpeg({ quality: 90 })
    .toFile(path);
}

/** Width and height of the largest picture of `pixels` with sides in the ratio `w:h`. */
const largest = (pixels: number, w: number, h: number) => {
  const height = Math.floor(Math.sqrt((pixels * h) / w));
  return { width: Math.floor((height * w) / h), height };
};

/** Runs every local tool on its worst accepted input, one after another, each in a fresh child process. */
export async function measureWorstInputs(): Promise<WorkPeak[]> {
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-work-peak-'));
  try {
    const full = largest(WORK_LIMITS.inputPixels, 1, 1);
    const fullPicture = join(dir, 'full.jpg');
    await productShot(fullPicture, full.width, full.height);
    // Enhancement: the longest side it takes, and as many pixels as keep the result (×4) within the bound.
    const enlarge = { width: ENHANCE_MAX_LONG_SIDE, height: ENHANCE_MAX_LONG_SIDE };
    const enlargePicture = join(dir, 'enlarge.jpg');
    await productShot(enlargePicture, enlarge.width, enlarge.height);
    // Extension: the largest canvas (its longest side at the limit) around a picture a quarter of its height.
    const canvas = {
      width: WORK_LIMITS.outputSide,
      height: Math.floor(WORK_LIMITS.outputPixels / WORK_LIMITS.outputSide),
      left: 0,
      top: 0,
    };
    const small = Math.round(canvas.height / 2.5);
    canvas.left = Math.floor((canvas.width - small) / 2);
    canvas.top = Math.floor((canvas.height - small) / 2);
    // On a textured backdrop, the extension's costlier path: the cut-out model tells the subject from it.
    const smallPicture = join(dir, 'small.jpg');
    await writeFile(smallPicture, await grainPhoto(small, small, { blur: 3 }));

    const mp = (width: number, height: number) => `${width}×${height} (${((width * height) / 1e6).toFixed(1)} MP)`;
    const cases = [
      { tool: 'remove-background', input: mp(full.width, full.height), spec: { picture: fullPicture, out: join(dir, 'cut.png') } },
      {
        tool: 'product-background',
        input: `${mp(full.width, full.height)} on a background as large`,
        spec: { picture: fullPicture, background: fullPicture, out: join(dir, 'scene.jpg') },
      },
      {
        tool: 'expand-image',
        input: `${small}×${small} to ${mp(canvas.width, canvas.height)}`,
        spec: { picture: smallPicture, canvas, out: join(dir, 'expanded.jpg') },
      },
      {
        tool: 'enlarge-image',
        input: `${enlarge.width}×${enlarge.height} ×4 to ${mp(enlarge.width * 4, enlarge.height * 4)}`,
        spec: { picture: enlargePicture, out: join(dir, 'enlarged.jpg') },
      },
      {
        tool: 'image-to-video',
        input: `${mp(full.width, full.height)} to 1080×1920, 5 s`,
        spec: { picture: fullPicture, out: join(dir, 'video.mp4') },
      },
    ];
    const peaks: WorkPeak[] = [];
    for (const { tool, input, spec } of cases) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, tool, JSON.stringify(spec)], {
        cwd: import.meta.dirname,
        maxBuffer: 1024 * 1024,
      });
      const line = stdout.trim().split('\n').at(-1) as string;
      peaks.push({ tool, input, ...(JSON.parse(line) as { ms: number; peakMb: number; taskMb: number }) });
    }
    return peaks;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figures as lines of a table. */
export const peakLines = (peaks: WorkPeak[]) =>
  peaks.map(
    (p) =>
      `  ${p.tool.padEnd(18)} ${p.input.padEnd(44)} ${`${(p.ms / 1000).toFixed(1)} s`.padStart(7)}  peak ${p.peakMb} MB (task ${p.taskMb} MB)`,
  );
