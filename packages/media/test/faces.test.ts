// Presenter portraits (decision "Presenter portraits"): one clear face looking at the camera passes; no face, two
// people, a face too small to lip-sync or a face turned away are each told apart. The faces are drawn by the test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPortrait } from '../src/index.js';
import { drawnPortrait, productPhoto } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-faces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const saved = async (name: string, picture: Promise<Buffer>) => {
  const file = join(dir, name);
  writeFileSync(file, await picture);
  return file;
};

describe('checkPortrait', () => {
  it('passes one face looking at the camera, and says where it is', async () => {
    const check = await checkPortrait(await saved('one.jpg', drawnPortrait()));
    expect(check.problem).toBeNull();
    expect(check.faces).toHaveLength(1);
    const [face] = check.faces;
    // The head is drawn in the middle of the upper half, about two fifths of the picture tall.
    expect(face?.box.x).toBeGreaterThan(0.15);
    expect((face?.box.x ?? 0) + (face?.box.w ?? 0)).toBeLessThan(0.85);
    expect(face?.box.h).toBeGreaterThan(0.25);
    expect(Math.abs((face?.turn ?? 0) - 0.5)).toBeLessThan(0.1);
  }, 60_000);

  it('tells a product photo (no face), two people, a small face and a face turned away apart', async () => {
    expect((await checkPortrait(await saved('product.png', productPhoto(600, 800)))).problem).toBe('noFace');
    expect((await checkPortrait(await saved('two.jpg', drawnPortrait({ width: 1200, height: 900, faces: 2, scale: 1.1 })))).problem).toBe(
      'severalFaces',
    );
    expect((await checkPortrait(await saved('small.jpg', drawnPortrait({ width: 1600, height: 2000, scale: 0.6 })))).problem).toBe(
      'faceTooSmall',
    );
    expect((await checkPortrait(await saved('turned.jpg', drawnPortrait({ turn: 0.9 })))).problem).toBe('notFacingCamera');
  }, 60_000);
});
