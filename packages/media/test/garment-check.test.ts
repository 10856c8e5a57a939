// The clothing check reads the picture (decision "Garment check reads the picture"): trousers laid flat in a tan
// colour are a bottom, not a person; a hair dryer and a backpack on white are no garment, however their outline
// reads; a flat t-shirt is a top; a drawn person in a shirt is worn (decision "Worn garments"). Every picture is
// drawn here, at 1024 px, from SVG.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { checkGarment } from '../src/imaging/garment.js';

const work = mkdtempSync(join(tmpdir(), 'reelsmith-garment-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A 1024² JPEG of `body` on a white backdrop, written to the work folder. */
async function picture(name: string, body: string, defs = ''): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><defs>${defs}</defs><rect width="1024" height="1024" fill="#ffffff"/>${body}</svg>`;
  const path = join(work, `${name}.jpg`);
  writeFileSync(path, await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer());
  return path;
}

/** Khaki chinos laid flat: a waistband with belt loops, a fly, two legs apart, fold shadows across the legs. */
const trousers =
  '<path d="M 330 150 L 694 150 L 730 900 L 560 900 L 512 380 L 464 900 L 294 900 Z" fill="#c8a27a"/>' +
  '<rect x="330" y="150" width="364" height="56" fill="#b8916a"/><line x1="330" y1="206" x2="694" y2="206" stroke="#3a2c20" stroke-width="10"/>' +
  '<line x1="512" y1="206" x2="512" y2="360" stroke="#3a2c20" stroke-width="8"/>' +
  '<path d="M 300 480 Q 390 500 470 470" stroke="#3a2c20" stroke-width="12" fill="none"/>' +
  '<path d="M 555 470 Q 640 500 720 480" stroke="#3a2c20" stroke-width="12" fill="none"/>' +
  '<path d="M 305 700 Q 380 690 480 720" stroke="#3a2c20" stroke-width="12" fill="none"/>' +
  '<path d="M 545 720 Q 650 690 722 700" stroke="#3a2c20" stroke-width="12" fill="none"/>' +
  '<rect x="380" y="140" width="16" height="70" fill="#a88560"/><rect x="628" y="140" width="16" height="70" fill="#a88560"/>';

/** A hair dryer in dark glossy plastic: a barrel with a nozzle and a vent cap, a handle at an angle, a highlight. */
const hairDryerDefs =
  '<linearGradient id="body" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b3d45"/><stop offset="0.5" stop-color="#1b1c21"/><stop offset="1" stop-color="#0d0d10"/></linearGradient>' +
  '<radialGradient id="shine" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ffffff"/><stop offset="0.45" stop-color="#e6e8ee" stop-opacity="0.9"/><stop offset="1" stop-color="#3b3d45" stop-opacity="0"/></radialGradient>';
const hairDryer =
  '<rect x="140" y="250" width="600" height="200" rx="90" fill="url(#body)"/>' +
  '<rect x="70" y="285" width="110" height="130" rx="20" fill="#15161a"/>' +
  '<circle cx="735" cy="350" r="105" fill="#24252b"/><circle cx="735" cy="350" r="70" fill="#101014"/>' +
  '<rect x="470" y="400" width="130" height="400" rx="50" fill="url(#body)" transform="rotate(18 535 420)"/>' +
  '<ellipse cx="420" cy="292" rx="210" ry="26" fill="url(#shine)"/>';

/** A backpack: a rounded body, a carry handle loop on top, shoulder straps looping out at the sides, a zipper. */
const backpack =
  '<path d="M 450 230 Q 512 110 574 230" stroke="#2c3e2d" stroke-width="34" fill="none"/>' +
  '<path d="M 340 330 C 200 380 200 760 330 820" stroke="#22301f" stroke-width="40" fill="none"/>' +
  '<path d="M 684 330 C 824 380 824 760 694 820" stroke="#22301f" stroke-width="40" fill="none"/>' +
  '<rect x="312" y="220" width="400" height="640" rx="150" fill="#3e5a40"/>' +
  '<rect x="360" y="560" width="304" height="220" rx="40" fill="#36503a"/>' +
  '<path d="M 340 420 Q 512 330 684 420" stroke="#111" stroke-width="8" fill="none"/>' +
  '<rect x="600" y="378" width="18" height="46" rx="6" fill="#b9bcc2"/>';

/** A t-shirt laid flat, heather grey, with a ribbed neck and fold shadows. */
const tshirt =
  '<path d="M 400 170 Q 512 240 624 170 L 760 230 L 880 400 L 770 460 L 730 420 L 730 880 L 294 880 L 294 420 L 254 460 L 144 400 L 264 230 Z" fill="#7d8794"/>' +
  '<path d="M 400 170 Q 512 240 624 170" stroke="#5d6672" stroke-width="16" fill="none"/>' +
  '<path d="M 330 600 Q 450 640 560 610" stroke="#6b7480" stroke-width="10" fill="none"/>' +
  '<path d="M 420 760 Q 560 740 700 780" stroke="#6b7480" stroke-width="10" fill="none"/>';

/** A person: hair, a face with eyes and a mouth, a neck, bare forearms and hands, a shirt, trousers cut by the frame. */
const person =
  '<ellipse cx="512" cy="150" rx="78" ry="90" fill="#3b2a1e"/><ellipse cx="512" cy="180" rx="64" ry="80" fill="#d8a47f"/>' +
  '<ellipse cx="488" cy="170" rx="9" ry="6" fill="#2b1d14"/><ellipse cx="536" cy="170" rx="9" ry="6" fill="#2b1d14"/>' +
  '<path d="M 490 220 Q 512 234 534 220" stroke="#9a4a3c" stroke-width="6" fill="none"/>' +
  '<rect x="486" y="245" width="52" height="50" fill="#c9956f"/>' +
  '<rect x="268" y="520" width="54" height="250" rx="24" fill="#d8a47f"/><rect x="702" y="520" width="54" height="250" rx="24" fill="#d8a47f"/>' +
  '<ellipse cx="295" cy="790" rx="34" ry="44" fill="#d8a47f"/><ellipse cx="729" cy="790" rx="34" ry="44" fill="#d8a47f"/>' +
  '<rect x="372" y="720" width="280" height="304" fill="#2a2f3d"/>' +
  '<path d="M 440 280 Q 512 320 584 280 L 700 320 L 760 540 L 700 550 L 660 420 L 660 760 L 364 760 L 364 420 L 324 550 L 264 540 L 324 320 Z" fill="#b23a3a"/>';

describe('checkGarment reads the picture', () => {
  it('takes trousers laid flat in a skin-like tan for a bottom, not for a person', async () => {
    expect(await checkGarment(await picture('trousers', trousers))).toEqual({ ok: true, reason: null, garmentType: 'bottom' });
  });

  it('refuses a hair dryer in glossy plastic, whose outline is wide on top and narrow below', async () => {
    const check = await checkGarment(await picture('hair-dryer', hairDryer, hairDryerDefs));
    expect(check.ok).toBe(false);
    expect(check.garmentType).toBeNull();
    expect(check.reason).toBe('typeNotSupported');
  });

  it('refuses a backpack, whose rounded body reads like a sleeveless top', async () => {
    const check = await checkGarment(await picture('backpack', backpack));
    expect(check.ok).toBe(false);
    expect(check.garmentType).toBeNull();
    expect(check.reason).toBe('typeNotSupported');
  });

  it('takes a t-shirt laid flat for a top', async () => {
    expect(await checkGarment(await picture('t-shirt', tshirt))).toEqual({ ok: true, reason: null, garmentType: 'top' });
  });

  it('refuses a drawn person wearing a shirt as worn', async () => {
    expect(await checkGarment(await picture('person', person))).toEqual({ ok: false, reason: 'worn', garmentType: null });
  });
});
