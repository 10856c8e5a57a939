// Cut-outs that keep the whole subject or refuse (decision "Cut-outs keep the subject"), on pictures drawn here:
// pale products on white whose bodies the model drops (a white sleeve, a grey hoodie in close-up); a head of fine
// hair; pictures with no subject; and a dark figure by a dark window beside a small bright fruit, which the model
// prefers to the figure.
// Each picture's subject is drawn a second time alone, white on black, to know which pixels are its core.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutOut, NoSubjectError } from '../src/imaging/cutout.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cutout-subject-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/** A drawn picture as a JPEG with grain (± `grain` levels), as a photo is. */
async function photo(width: number, height: number, body: string, grain = 3): Promise<string> {
  const { data, info } = await sharp(svg(width, height, body))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = 11;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, (data[i] as number) + ((seed >>> 24) % (2 * grain + 1)) - grain));
  }
  const file = join(dir, `${Math.random().toString(36).slice(2)}.jpg`);
  await sharp(data, { raw: info }).jpeg({ quality: 92 }).toFile(file);
  return file;
}

/** The shape's pixels (1) drawn white on black, eroded by `inset` px: the subject's core. */
async function coreOf(width: number, height: number, shape: string, inset: number): Promise<Uint8Array> {
  const grey = await sharp(svg(width, height, `<rect width="100%" height="100%" fill="#000"/>${shape}`))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const on = new Uint8Array(width * height);
  for (let y = inset; y < height - inset; y++) {
    for (let x = inset; x < width - inset; x++) {
      let all = true;
      for (let d = -inset; d <= inset && all; d++) {
        if (
          (grey[y * width + x + d] as number) < 128 ||
          (grey[(y + d) * width + x] as number) < 128 ||
          (grey[(y + d) * width + x + d] as number) < 128 ||
          (grey[(y + d) * width + x - d] as number) < 128
        )
          all = false;
      }
      if (all) on[y * width + x] = 1;
    }
  }
  return on;
}

const alphaOf = async (file: string) => sharp(file).extractChannel(3).raw().toBuffer();

/** The share of the region's pixels whose alpha is at least `level` (0–1). */
function shareAtLeast(alpha: Buffer, region: Uint8Array, level: number): number {
  let on = 0;
  let all = 0;
  for (let i = 0; i < region.length; i++) {
    if (!region[i]) continue;
    all++;
    if ((alpha[i] as number) >= level * 255) on++;
  }
  return on / all;
}

describe('cutOut keeps the subject', () => {
  it('keeps a pale product on white whole: its core opaque though the model doubts it', { timeout: 120_000 }, async () => {
    const [width, height] = [640, 640];
    // A white sleeve with a grey knit cuff on white, running off the frame's left edge: the model keeps the cuff
    // and the seams and drops the sleeve's pale body.
    const sleeve =
      '<path d="M-10 80 L420 250 L380 400 L-10 300 Z" fill="#fff"/><rect x="380" y="230" width="160" height="190" rx="30" fill="#fff"/>';
    // A light grey hoodie in close-up filling most of a white frame, off three of its edges, its zip dark: the
    // model keeps the zip alone.
    const hoodie = '<path d="M-10 -10 L430 -10 L470 650 L-10 650 Z" fill="#fff"/>';
    const cases = [
      {
        shape: sleeve,
        picture: await photo(
          width,
          height,
          '<rect width="100%" height="100%" fill="#fdfdfd"/><path d="M-10 80 L420 250 L380 400 L-10 300 Z" fill="#e6e6e6" stroke="#9a9a9a" stroke-width="3"/>' +
            '<rect x="380" y="230" width="160" height="190" rx="30" fill="#8d8f93"/>',
        ),
      },
      {
        shape: hoodie,
        picture: await photo(
          width,
          height,
          '<rect width="100%" height="100%" fill="#fbfbfb"/><path d="M-10 -10 L430 -10 L470 650 L-10 650 Z" fill="#c9cacc"/>' +
            '<path d="M300 -10 L310 650" stroke="#222" stroke-width="8"/><rect x="-10" y="420" width="200" height="240" fill="#bfc0c2"/>',
          10,
        ),
      },
    ];
    for (const { shape, picture } of cases) {
      const out = join(dir, 'pale.png');
      await cutOut(picture, out);
      const core = await coreOf(width, height, shape, 6);
      expect(shareAtLeast(await alphaOf(out), core, 0.9)).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('keeps fine hair partly transparent and the head opaque', { timeout: 120_000 }, async () => {
    // A head and shoulders on light grey, with a hundred thin strands of hair falling past the face.
    const [width, height] = [512, 640];
    let strands = '';
    let seed = 5;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) / 0xffffff;
    };
    for (let i = 0; i < 110; i++) {
      const x = 150 + next() * 212;
      const bend = (x < 256 ? -1 : 1) * (30 + next() * 60);
      strands += `<path d="M${256 + (x - 256) * 0.4} 120 Q${x + bend * 0.5} 260 ${x + bend} ${340 + next() * 90}" stroke="#3a2414" stroke-width="${0.8 + next() * 0.8}" fill="none"/>`;
    }
    const head =
      '<ellipse cx="256" cy="230" rx="95" ry="120" fill="#fff"/><rect x="96" y="400" width="320" height="260" rx="80" fill="#fff"/>';
    const picture = await photo(
      width,
      height,
      '<rect width="100%" height="100%" fill="#e8e6e3"/>' +
        '<rect x="96" y="400" width="320" height="260" rx="80" fill="#2f5d8a"/>' +
        '<rect x="226" y="320" width="60" height="100" fill="#c99a7a"/>' +
        '<ellipse cx="256" cy="230" rx="95" ry="120" fill="#d7a98a"/>' +
        '<path d="M160 200 Q256 60 352 200 Q330 120 256 110 Q182 120 160 200 Z" fill="#3a2414"/>' +
        strands,
    );
    const out = join(dir, 'hair.png');
    await cutOut(picture, out);
    const alpha = await alphaOf(out);
    const core = await coreOf(width, height, head, 8);
    expect(shareAtLeast(alpha, core, 0.9)).toBeGreaterThanOrEqual(0.9);
    // Among the strands beside the face and below it, off the head and shoulders: some partial alpha, not all cut
    // to 0 or 1.
    const body = await coreOf(width, height, head, 0);
    let partial = 0;
    let band = 0;
    for (let y = 260; y < 400; y++) {
      for (let x = 110; x < 402; x++) {
        const i = y * width + x;
        if (body[i]) continue;
        band++;
        const a = (alpha[i] as number) / 255;
        if (a > 0.1 && a < 0.9) partial++;
      }
    }
    expect(partial / band).toBeGreaterThan(0.01);
  });

  it('refuses pictures with no subject', { timeout: 120_000 }, async () => {
    const [width, height] = [480, 480];
    const pictures = [
      // A flat colour.
      await photo(width, height, '<rect width="100%" height="100%" fill="#7a8fa3"/>'),
      // An empty studio backdrop: a sweep lit from above.
      await photo(
        width,
        height,
        '<defs><radialGradient id="g" cx="50%" cy="30%" r="80%"><stop offset="0" stop-color="#f6f6f6"/><stop offset="1" stop-color="#d9d9d9"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>',
      ),
    ];
    for (const picture of pictures) await expect(cutOut(picture, join(dir, 'none.png'))).rejects.toBeInstanceOf(NoSubjectError);
  });

  it('never answers the small bright fruit alone beside a dark figure by a dark window', { timeout: 120_000 }, async () => {
    // A woman in dark clothes, long dark hair down her back, against a night window (its frames, a few lights),
    // holding an orange at arm's length: the model keeps the arm and the orange and little of her.
    const [width, height] = [600, 760];
    let strands = '';
    let seed = 3;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) / 0xffffff;
    };
    for (let i = 0; i < 80; i++) {
      const x = 200 + next() * 140;
      strands += `<path d="M270 110 Q${x} 300 ${x + (next() - 0.5) * 80} ${380 + next() * 120}" stroke="#121418" stroke-width="${1 + next() * 2}" fill="none"/>`;
    }
    const figure =
      '<path d="M185 170 Q270 50 355 170 L390 520 L150 520 Z" fill="#fff"/><rect x="150" y="330" width="240" height="460" rx="70" fill="#fff"/>' +
      '<path d="M370 360 L500 440 L488 462 L360 400 Z" fill="#fff"/>';
    const picture = await photo(
      width,
      height,
      '<defs><linearGradient id="w" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b222c"/><stop offset="1" stop-color="#0e1218"/></linearGradient></defs>' +
        '<rect width="100%" height="100%" fill="url(#w)"/>' +
        '<rect x="20" y="20" width="270" height="720" fill="none" stroke="#29313c" stroke-width="8"/>' +
        '<rect x="310" y="20" width="270" height="720" fill="none" stroke="#29313c" stroke-width="8"/>' +
        '<circle cx="460" cy="120" r="4" fill="#e8d9a0"/><circle cx="90" cy="200" r="3" fill="#e8d9a0"/><circle cx="520" cy="650" r="5" fill="#d9c890"/>' +
        '<path d="M185 170 Q270 50 355 170 L390 520 L150 520 Z" fill="#101318"/><rect x="150" y="330" width="240" height="460" rx="70" fill="#13161b"/>' +
        strands +
        '<path d="M370 360 L500 440 L488 462 L360 400 Z" fill="#6a4a3a"/><circle cx="520" cy="430" r="34" fill="#f39a2a"/>',
    );
    const out = join(dir, 'window.png');
    let alpha: Buffer | null = null;
    try {
      await cutOut(picture, out);
      alpha = await alphaOf(out);
    } catch (error) {
      // A refusal is an honest answer; anything else is a failure.
      expect(error).toBeInstanceOf(NoSubjectError);
    }
    // An answer must hold the woman, not the arm and the fruit alone.
    if (alpha) expect(shareAtLeast(alpha, await coreOf(width, height, figure, 8), 0.9)).toBeGreaterThanOrEqual(0.85);
  });
});
