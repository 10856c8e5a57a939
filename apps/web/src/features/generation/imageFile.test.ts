import { describe, expect, it } from 'vitest';
import { clothingFileFits, imageSize } from './imageFile';

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16 = (n: number) => [(n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const text = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The start of a PNG: signature and IHDR, as every PNG begins. */
const png = (width: number, height: number) =>
  new Uint8Array([137, ...text('PNG'), 13, 10, 26, 10, ...u32(13), ...text('IHDR'), ...u32(width), ...u32(height), 8, 2, 0, 0, 0]);

/** A JPEG with an APP0 (JFIF) segment before its start-of-frame, as cameras and editors write them. */
const jpeg = (width: number, height: number) =>
  new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...u16(16),
    ...text('JFIF'),
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0xff,
    0xdb,
    ...u16(4),
    0,
    0,
    0xff,
    0xc0,
    ...u16(17),
    8,
    ...u16(height),
    ...u16(width),
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);

const webpX = (width: number, height: number) =>
  new Uint8Array([
    ...text('RIFF'),
    0,
    0,
    0,
    0,
    ...text('WEBPVP8X'),
    ...le16(10),
    0,
    0,
    0,
    0,
    0,
    0,
    ...le24(width - 1),
    ...le24(height - 1),
    0,
    0,
  ]);

const webpLossless = (width: number, height: number) => {
  const bits = (width - 1) | ((height - 1) << 14);
  return new Uint8Array([
    ...text('RIFF'),
    0,
    0,
    0,
    0,
    ...text('WEBPVP8L'),
    0,
    0,
    0,
    0,
    0x2f,
    bits & 255,
    (bits >>> 8) & 255,
    (bits >>> 16) & 255,
    (bits >>> 24) & 255,
    0,
    0,
    0,
    0,
    0,
  ]);
};

const webpLossy = (width: number, height: number) =>
  new Uint8Array([
    ...text('RIFF'),
    0,
    0,
    0,
    0,
    ...text('WEBPVP8 '),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0x9d,
    0x01,
    0x2a,
    ...le16(width),
    ...le16(height),
    0,
    0,
  ]);

describe('imageSize', () => {
  it('reads the size PNG, JPEG and WebP files declare', () => {
    expect(imageSize(png(1200, 800))).toEqual({ width: 1200, height: 800 });
    expect(imageSize(jpeg(640, 4000))).toEqual({ width: 640, height: 4000 });
    expect(imageSize(webpX(3000, 2000))).toEqual({ width: 3000, height: 2000 });
    expect(imageSize(webpLossless(512, 700))).toEqual({ width: 512, height: 700 });
    expect(imageSize(webpLossy(1024, 768))).toEqual({ width: 1024, height: 768 });
  });

  it('answers null for anything else', () => {
    expect(imageSize(new Uint8Array(text('GIF89a and more bytes than a header needs')))).toBeNull();
    expect(imageSize(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });
});

describe('clothingFileFits (spec "Validation rules": JPG/JPEG/PNG, 10 MB, shorter side ≥ 512, longer ≤ 4096)', () => {
  const file = (bytes: Uint8Array<ArrayBuffer>, name: string, padTo = 0) =>
    new File([bytes, new Uint8Array(Math.max(0, padTo - bytes.length))], name, { type: 'image/png' });

  it('takes pictures within every limit, at the limits too', async () => {
    expect(await clothingFileFits(file(png(512, 4096), 'shirt.png'))).toBe(true);
    expect(await clothingFileFits(file(jpeg(1000, 1500), 'dress.JPEG'))).toBe(true);
    expect(await clothingFileFits(file(jpeg(1000, 1500), 'dress.jpg', 10 * 1024 * 1024))).toBe(true);
  });

  it('refuses other types, larger files and sides out of range', async () => {
    expect(await clothingFileFits(file(webpX(1000, 1000), 'shirt.webp'))).toBe(false);
    expect(await clothingFileFits(file(png(1000, 1000), 'shirt.png', 10 * 1024 * 1024 + 1))).toBe(false);
    expect(await clothingFileFits(file(png(511, 1000), 'shirt.png'))).toBe(false);
    expect(await clothingFileFits(file(png(1000, 4097), 'shirt.png'))).toBe(false);
    expect(await clothingFileFits(file(new Uint8Array(text('not a picture at all, just text')), 'shirt.png'))).toBe(false);
  });
});
