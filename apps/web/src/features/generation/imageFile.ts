import { CLOTHING_MAX_BYTES, CLOTHING_MAX_LONG_SIDE, CLOTHING_MIN_SHORT_SIDE } from '@reelsmith/contract';

export interface Size {
  width: number;
  height: number;
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

function pngSize(view: DataView, bytes: Uint8Array): Size | null {
  if (bytes.length < 24 || ascii(bytes, 1, 3) !== 'PNG' || ascii(bytes, 12, 4) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** JPEG: walk the segments to the first start-of-frame marker, which holds the picture's size. */
function jpegSize(view: DataView, bytes: Uint8Array): Size | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function webpSize(view: DataView, bytes: Uint8Array): Size | null {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') {
    const width = 1 + (view.getUint16(24, true) | ((bytes[26] ?? 0) << 16));
    const height = 1 + (view.getUint16(27, true) | ((bytes[29] ?? 0) << 16));
    return { width, height };
  }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return null;
}

/** The pixel size a PNG, JPEG or WebP file declares in its header, or null for anything else. */
export function imageSize(bytes: Uint8Array): Size | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return pngSize(view, bytes) ?? jpegSize(view, bytes) ?? webpSize(view, bytes);
}

/** Reads a picture's size from the start of its file, where every format we take states it (64 KiB covers JPEG's EXIF). */
export async function readImageSize(file: Blob): Promise<Size | null> {
  return imageSize(await readBytes(file.slice(0, 65_536)));
}

/** A blob's bytes through FileReader, which every browser (and jsdom) has. */
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

export const CLOTHING_TYPES = ['JPG', 'JPEG', 'PNG'] as const;

/** The parameters of the generic upload limits message for clothing pictures (spec "Validation rules"). */
export const CLOTHING_LIMITS = {
  types: CLOTHING_TYPES.join('/'),
  size: CLOTHING_MAX_BYTES / 1024 / 1024,
  min: CLOTHING_MIN_SHORT_SIDE,
  max: CLOTHING_MAX_LONG_SIDE,
};

/**
 * Whether a clothing picture is within the limits of spec "Validation rules" (JPG/JPEG/PNG, 10 MB, shorter side ≥ 512 px, longer
 * side ≤ 4096 px), checked in the browser before anything is uploaded.
 */
export async function clothingFileFits(file: File): Promise<boolean> {
  const extension = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toUpperCase() ?? '';
  if (!(CLOTHING_TYPES as readonly string[]).includes(extension) || file.size > CLOTHING_MAX_BYTES) return false;
  const size = await readImageSize(file);
  if (!size) return false;
  return Math.min(size.width, size.height) >= CLOTHING_MIN_SHORT_SIDE && Math.max(size.width, size.height) <= CLOTHING_MAX_LONG_SIDE;
}
