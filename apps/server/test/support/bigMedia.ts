// Large media made cheaply for the tests of size limits: a real clip padded to any size with a trailing MP4 `free`
// box (ISO BMFF: a 32-bit size, the type, the payload), which every reader skips. Encoding that many bytes of video
// would take minutes of both cores.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { locateTools } from '@reelsmith/media';
import { makeVideo } from '@reelsmith/media/fixtures';

/** Writes `dir/<name>`: a 2 s 320×240 H.264 clip padded to exactly `bytes`; answers its path. */
export async function paddedVideo(dir: string, bytes: number, name = 'big.mp4'): Promise<string> {
  const clip = await makeVideo(locateTools(), join(dir, `${name}.clip.mp4`), { seconds: 2, width: 320, height: 240 });
  const head = readFileSync(clip);
  const padding = bytes - head.length;
  if (padding < 8) throw new Error(`${bytes} bytes is smaller than the clip (${head.length})`);
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    const box = Buffer.alloc(8);
    box.writeUInt32BE(padding, 0);
    box.write('free', 4, 'latin1');
    writeSync(fd, box);
    const zeros = Buffer.alloc(4 * 1024 * 1024);
    for (let left = padding - 8; left > 0; left -= zeros.length) writeSync(fd, zeros, 0, Math.min(left, zeros.length));
  } finally {
    closeSync(fd);
  }
  return path;
}
