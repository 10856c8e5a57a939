// Product in hand (decision "Product in hand") without a vendor: the sandbox's stand-in, outside production only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generationProviders } from '../../src/providers/registry.js';
import { loadSettings } from '../../src/settings.js';
import { testJob } from './fakeVendor.js';

const plain = (width: number, height: number, background: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('product in hand', () => {
  let job: ReturnType<typeof testJob>;
  beforeEach(() => {
    job = testJob();
  });
  afterEach(() => job.cleanup());

  it('has the sandbox stand in: the product held up in front of the presenter, the portrait kept around it, marked', async () => {
    const person = join(job.job.workDir, 'person.png');
    const product = join(job.job.workDir, 'product.png');
    writeFileSync(person, await plain(600, 800, { r: 40, g: 60, b: 160 }));
    writeFileSync(product, await plain(300, 300, { r: 230, g: 40, b: 30 }));
    const provider = generationProviders(loadSettings({ DATA_DIR: job.job.workDir })).productHolding;
    expect(provider?.name).toBe('sandbox');
    const file = (await provider?.hold({ person, product }, job.job)) as string;
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // The portrait's shape, brought within 1024 px.
    expect([info.width, info.height]).toEqual([768, 1024]);
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    // The product where a held product would be (below the face, a little to the side), the portrait at the top.
    const [r, g, b] = at(Math.round(0.66 * info.width), Math.round(0.7 * info.height)) as [number, number, number];
    expect(r).toBeGreaterThan(150);
    expect(g + b).toBeLessThan(200);
    const [, , blue] = at(20, 20) as [number, number, number];
    expect(blue).toBeGreaterThan(100);
  });
});
