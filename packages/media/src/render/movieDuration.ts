/**
 * The MP4's header durations brought down to what its edit lists play (decision "Both ffmpeg builds"). The npm
 * ffmpeg (4.1) writes the movie's and the audio track's duration from the track's samples, AAC's priming frame
 * included (1024 samples, 21–23 ms), so a 15 s export says 15.022 s in `mvhd` and `tkhd` while its edit list plays
 * exactly 15 s; players and ffprobe 5.1 show the longer figure. ffmpeg 5.1 writes the edit list's length, and there
 * this changes nothing. The boxes keep their sizes: a few numbers are rewritten in place.
 */
import { open } from 'node:fs/promises';

interface Box {
  type: string;
  /** Where the box's content starts, after its header. */
  body: number;
  end: number;
}

/** The boxes laid one after another in `buffer` between `from` and `to`. */
function children(buffer: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    let size = buffer.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) break;
    boxes.push({ type: buffer.toString('latin1', at + 4, at + 8), body: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

const child = (buffer: Buffer, box: Box, type: string) => children(buffer, box.body, box.end).find((b) => b.type === type);

/** A full box's duration field: version 0 holds 32-bit times, version 1 64-bit ones; `before` is what precedes it. */
function durationField(buffer: Buffer, box: Box, before: { v0: number; v1: number }) {
  const version = buffer.readUInt8(box.body);
  const at = box.body + 4 + (version === 1 ? before.v1 : before.v0);
  return {
    read: () => (version === 1 ? Number(buffer.readBigUInt64BE(at)) : buffer.readUInt32BE(at)),
    write: (value: number) => (version === 1 ? buffer.writeBigUInt64BE(BigInt(value), at) : buffer.writeUInt32BE(value, at)),
  };
}

/** The movie-timescale length an edit list plays: the sum of its entries' durations (empty edits included). */
function editListLength(buffer: Buffer, elst: Box): number {
  const version = buffer.readUInt8(elst.body);
  const count = buffer.readUInt32BE(elst.body + 4);
  const entry = version === 1 ? 20 : 12;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const at = elst.body + 8 + i * entry;
    total += version === 1 ? Number(buffer.readBigUInt64BE(at)) : buffer.readUInt32BE(at);
  }
  return total;
}

/**
 * Lowers `mvhd`'s and each track's `tkhd` duration to its edit list's length where they claim more; answers
 * whether anything changed. Files without edit lists, or whose headers already agree, are left untouched.
 */
export async function trimHeaderDurations(file: string): Promise<boolean> {
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    // The top-level boxes, read header by header: the media data is never read.
    let moov: { offset: number; size: number } | undefined;
    const header = Buffer.alloc(16);
    for (let at = 0; at + 8 <= size; ) {
      await handle.read(header, 0, 16, at);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - at;
      if (boxSize < 8) break;
      if (header.toString('latin1', 4, 8) === 'moov') {
        moov = { offset: at, size: boxSize };
        break;
      }
      at += boxSize;
    }
    if (!moov) return false;
    const buffer = Buffer.alloc(moov.size);
    await handle.read(buffer, 0, moov.size, moov.offset);
    const [root] = children(buffer, 0, buffer.length);
    if (!root) return false;
    const mvhd = child(buffer, root, 'mvhd');
    if (!mvhd) return false;
    let changed = false;
    let longest = 0;
    for (const trak of children(buffer, root.body, root.end).filter((b) => b.type === 'trak')) {
      const tkhd = child(buffer, trak, 'tkhd');
      if (!tkhd) continue;
      // tkhd: creation and modification times, track id, a reserved word, then the duration.
      const duration = durationField(buffer, tkhd, { v0: 16, v1: 24 });
      const edts = child(buffer, trak, 'edts');
      const elst = edts && child(buffer, edts, 'elst');
      let length = duration.read();
      if (elst) {
        const edited = editListLength(buffer, elst);
        if (edited < length) {
          duration.write(edited);
          length = edited;
          changed = true;
        }
      }
      longest = Math.max(longest, length);
    }
    // mvhd: creation and modification times and the timescale, then the duration.
    const movie = durationField(buffer, mvhd, { v0: 12, v1: 20 });
    if (longest > 0 && movie.read() > longest) {
      movie.write(longest);
      changed = true;
    }
    if (changed) await handle.write(buffer, 0, buffer.length, moov.offset);
    return changed;
  } finally {
    await handle.close();
  }
}
