// The cut-out's matte refined at full size (decision "Studio backdrops") on pictures made here: a glass shape, a
// furry edge, a product on a patterned floor. Each gives `refineMatte` the picture and a coarse mask as the model
// gives one (its edge soft over a few pixels, enlarged), and checks the alpha's statistics.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { refineMatte } from '../src/imaging/matte.js';

const SIZE = 400;

const raw = async (svg: string) =>
  sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">${svg}</svg>`))
    .removeAlpha()
    .raw()
    .toBuffer();

/** A mask from a shape, softened as the model's enlarged mask is. */
const coarseMask = async (shape: string, blur = 3) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}"><rect width="100%" height="100%" fill="#000"/>${shape}</svg>`,
    ),
  )
    .blur(blur)
    .extractChannel(0)
    .raw()
    .toBuffer();

const at = (alpha: Buffer, x: number, y: number) => alpha[y * SIZE + x] as number;

describe('refineMatte', () => {
  it('keeps a glass shape on a plain backdrop see-through inside, its rim and cap opaque', async () => {
    // A clear jar on white: its body is the backdrop a shade darker, outlined grey, under a wooden lid.
    const picture = await raw(
      '<rect width="100%" height="100%" fill="#f4f4f4"/><rect x="120" y="120" width="160" height="230" rx="18" fill="#e9e9ea" stroke="#8a8a8c" stroke-width="6"/><rect x="110" y="80" width="180" height="50" fill="#a8733f"/>',
    );
    const mask = await coarseMask('<rect x="110" y="80" width="180" height="273" rx="18" fill="#fff"/>');
    const { alpha, seeThrough } = refineMatte(picture, mask, SIZE, SIZE, [244, 244, 244]);
    const interior: number[] = [];
    for (let y = 170; y < 320; y += 5) for (let x = 150; x < 250; x += 5) interior.push(at(alpha, x, y));
    const mean = interior.reduce((a, b) => a + b, 0) / interior.length;
    expect(mean).toBeLessThan(128);
    expect(mean).toBeGreaterThan(5);
    expect(seeThrough).toBeGreaterThan(0.3);
    expect(at(alpha, 200, 100)).toBe(255);
    expect(at(alpha, 120, 250)).toBeGreaterThan(200);
  });

  it('adds a glass body the model left out under its lid, partly transparent, on a coloured backdrop', async () => {
    // A clear jar on light blue: the body is the backdrop a shade darker, outlined, with two highlights; the model's
    // mask holds only the wooden lid (on real photos it dropped the jar's clear body).
    const picture = await raw(
      '<rect width="100%" height="100%" fill="#a9cbe8"/>' +
        '<rect x="125" y="128" width="150" height="222" rx="16" fill="#a0c1dd" stroke="#6d8aa6" stroke-width="4"/>' +
        '<rect x="142" y="150" width="9" height="180" rx="4" fill="#eaf4fc"/><rect x="252" y="160" width="5" height="150" fill="#d7e8f6"/>' +
        '<ellipse cx="200" cy="340" rx="70" ry="8" fill="none" stroke="#7d99b4" stroke-width="3"/>' +
        '<rect x="112" y="84" width="176" height="48" rx="6" fill="#a8733f"/>',
    );
    const mask = await coarseMask('<rect x="112" y="84" width="176" height="48" rx="6" fill="#fff"/>');
    const { alpha } = refineMatte(picture, mask, SIZE, SIZE, [169, 203, 232]);
    const body: number[] = [];
    for (let y = 160; y < 330; y += 3) for (let x = 160; x < 245; x += 3) body.push(at(alpha, x, y));
    const mean = body.reduce((a, b) => a + b, 0) / body.length;
    // Partly transparent: seen, never clear, never solid.
    expect(mean).toBeGreaterThan(12);
    expect(mean).toBeLessThan(160);
    expect(body.filter((a) => a === 0).length / body.length).toBeLessThan(0.05);
    expect(body.filter((a) => a === 255).length / body.length).toBeLessThan(0.05);
    // Its outline and highlight are more opaque than the clear glass between them.
    expect(at(alpha, 146, 240)).toBeGreaterThan(mean);
    // The lid stays solid and the backdrop beside the jar clear.
    expect(at(alpha, 200, 105)).toBe(255);
    expect(at(alpha, 60, 240)).toBe(0);
    expect(at(alpha, 340, 240)).toBe(0);
  });

  it('keeps the backdrop seen through a handle clear: only the subject encloses it, no glass outline', async () => {
    // A mug with a ring handle on a plain backdrop; the model's mask is the mug and the ring, the hole left out.
    const picture = await raw(
      '<rect width="100%" height="100%" fill="#e8e2d6"/><rect x="110" y="120" width="150" height="180" fill="#c0392b"/>' +
        '<circle cx="285" cy="210" r="52" fill="none" stroke="#c0392b" stroke-width="22"/>',
    );
    const mask = await coarseMask(
      '<rect x="110" y="120" width="150" height="180" fill="#fff"/><circle cx="285" cy="210" r="52" fill="none" stroke="#fff" stroke-width="22"/>',
    );
    const { alpha } = refineMatte(picture, mask, SIZE, SIZE, [232, 226, 214]);
    let hole = 0;
    for (let y = 195; y < 226; y++) for (let x = 285; x < 310; x++) hole += at(alpha, x, y);
    expect(hole / (31 * 25)).toBeLessThan(3);
    expect(at(alpha, 180, 210)).toBe(255);
  });

  it('keeps a white product on white opaque: its light side fades into its shading, with no outline', async () => {
    // A white mug's glazed body, shaded across like a cylinder: its light middle comes within a few levels of the
    // backdrop, its sides fall off to 40 levels under it; a white handle the same.
    const picture = await raw(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#cccccc"/><stop offset="0.55" stop-color="#f1f1f1"/><stop offset="1" stop-color="#d2d2d2"/></linearGradient></defs>' +
        '<rect width="100%" height="100%" fill="#f4f4f4"/><rect x="110" y="110" width="180" height="210" rx="12" fill="url(#g)"/>',
    );
    const mask = await coarseMask('<rect x="110" y="110" width="180" height="210" rx="12" fill="#fff"/>');
    const { alpha, seeThrough } = refineMatte(picture, mask, SIZE, SIZE, [244, 244, 244]);
    expect(seeThrough).toBe(0);
    // Its light middle as opaque as its shaded sides.
    for (const x of [130, 190, 210, 270]) expect(at(alpha, x, 215)).toBe(255);
  });

  it('keeps the subject’s core opaque where the model doubted it', async () => {
    // A white garment on white: the model is sure of its rim and seams but only 70 % sure of its plain middle.
    const picture = await raw(
      '<rect width="100%" height="100%" fill="#ffffff"/><rect x="100" y="90" width="200" height="240" fill="#eeeeee" stroke="#777777" stroke-width="4"/>',
    );
    const mask = await coarseMask(
      '<rect x="100" y="90" width="200" height="240" fill="#fff"/><rect x="150" y="150" width="100" height="120" fill="#b3b3b3"/>',
    );
    const { alpha } = refineMatte(picture, mask, SIZE, SIZE, null);
    for (const [x, y] of [
      [200, 210],
      [160, 160],
      [240, 260],
    ] as const)
      expect(at(alpha, x, y)).toBe(255);
    expect(at(alpha, 40, 40)).toBe(0);
  });

  it('keeps an opaque product opaque on a plain backdrop of another colour', async () => {
    const picture = await raw(
      '<rect width="100%" height="100%" fill="#f4f4f4"/><rect x="120" y="120" width="160" height="200" fill="#2a6bd1"/>',
    );
    const mask = await coarseMask('<rect x="120" y="120" width="160" height="200" fill="#fff"/>');
    const { alpha, seeThrough } = refineMatte(picture, mask, SIZE, SIZE, [244, 244, 244]);
    expect(seeThrough).toBe(0);
    expect(at(alpha, 200, 220)).toBe(255);
    expect(at(alpha, 60, 60)).toBe(0);
  });

  it('gives a furry edge partial transparency along its band, where the coarse mask is a plain ramp', async () => {
    // Dark hairs, 1 px wide and 2 px apart, standing out 30 px from a dark body on a light backdrop.
    let hairs = '';
    for (let x = 80; x < 320; x += 3)
      hairs += `<line x1="${x}" y1="200" x2="${x + 6}" y2="${170 + ((x * 7) % 13)}" stroke="#2b2118" stroke-width="1"/>`;
    const picture = await raw(
      `<rect width="100%" height="100%" fill="#e8e4dc"/><rect x="80" y="200" width="240" height="160" fill="#2b2118"/>${hairs}`,
    );
    // The model's mask: the body and the fur's band as one soft-edged block.
    const mask = await coarseMask('<rect x="80" y="185" width="240" height="175" fill="#fff"/>', 4);
    const { alpha } = refineMatte(picture, mask, SIZE, SIZE, null);
    let partial = 0;
    let count = 0;
    let betweenHairs = 0;
    for (let y = 172; y < 200; y++) {
      for (let x = 100; x < 300; x++) {
        const a = at(alpha, x, y);
        count++;
        if (a > 12 && a < 243) partial++;
      }
    }
    for (let y = 185; y < 198; y++) betweenHairs += at(alpha, 150, y);
    const share = partial / count;
    expect(share).toBeGreaterThan(0.25);
    // The body is opaque, the backdrop above the fur clear.
    expect(at(alpha, 200, 300)).toBe(255);
    expect(at(alpha, 200, 150)).toBe(0);
    expect(betweenHairs / 13).toBeLessThan(250);
  });

  it('drops the floor a product stands on: its tiles and a grout line the mask kept joined to it', async () => {
    // A blue box on brown tiles with grey grout lines; the coarse mask overshoots the box by 6 px and keeps a 6 px
    // grout line running from the box to the frame's edge.
    let floor = '<rect width="100%" height="100%" fill="#8a3b24"/>';
    for (let t = 0; t < SIZE; t += 50)
      floor += `<rect x="${t}" y="0" width="4" height="${SIZE}" fill="#9c9a94"/><rect x="0" y="${t}" width="${SIZE}" height="4" fill="#9c9a94"/>`;
    const picture = await raw(`${floor}<rect x="130" y="130" width="140" height="140" fill="#2a6bd1"/>`);
    const mask = await coarseMask(
      '<rect x="124" y="124" width="152" height="152" fill="#fff"/><rect x="270" y="198" width="130" height="8" fill="#fff"/>',
      2,
    );
    const { alpha } = refineMatte(picture, mask, SIZE, SIZE, null);
    // The grout line beside the box, and the tile rim the mask overshot, are transparent.
    for (const x of [300, 340, 380]) expect(at(alpha, x, 201)).toBeLessThan(30);
    let rim = 0;
    for (let x = 140; x < 260; x++) rim += at(alpha, x, 126);
    expect(rim / 120).toBeLessThan(60);
    // The product stays whole.
    expect(at(alpha, 200, 200)).toBe(255);
    expect(at(alpha, 135, 135)).toBeGreaterThan(240);
  });
});
