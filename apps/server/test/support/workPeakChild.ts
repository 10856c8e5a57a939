// Run in a child process by workPeak.ts: one media operation of a picture tool on the given files, then its time
// and memory as one line of JSON. The process is warmed first (media loaded, the cut-out model read, as a server
// does at start), its peak resident memory is reset, and the peak after the operation is what the task held.
import { readFileSync, writeFileSync } from 'node:fs';
import { cutOut, extendImage, imageToVideo, replaceBackground, upscaleImage, warmCutOut } from '@reelsmith/media';

const MB = 1024 * 1024;
const peakKb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

const [tool, spec] = process.argv.slice(2) as [string, string];
const { picture, background, canvas, out } = JSON.parse(spec) as {
  picture: string;
  background?: string;
  canvas?: { width: number; height: number; left: number; top: number };
  out: string;
};

// Image to video (for its depth moves) and extension (on a textured backdrop) find the subject with the same model,
// loaded once per process.
if (tool !== 'enlarge-image') await warmCutOut();
const before = process.memoryUsage().rss;
// "5" resets the peak resident size the kernel keeps for the process (Linux 4.0 and later).
writeFileSync('/proc/self/clear_refs', '5');
const started = performance.now();
if (tool === 'remove-background') await cutOut(picture, out);
else if (tool === 'product-background') {
  const cut = `${out}.cutout.png`;
  await cutOut(picture, cut);
  await replaceBackground(cut, background as string, out);
} else if (tool === 'expand-image') await extendImage(picture, canvas as NonNullable<typeof canvas>, out);
else if (tool === 'enlarge-image') await upscaleImage(picture, 4, out);
else if (tool === 'image-to-video') await imageToVideo(picture, { seconds: 5, width: 1080, height: 1920 }, out);
else throw new Error(`no such tool: ${tool}`);
const ms = Math.round(performance.now() - started);
const peak = peakKb() * 1024;
process.stdout.write(`${JSON.stringify({ ms, peakMb: Math.round(peak / MB), taskMb: Math.round((peak - before) / MB) })}\n`);
