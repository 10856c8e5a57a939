/**
 * A zip archive of a folder, for the Chrome Web Store: DEFLATE entries written with node:zlib, so the build needs
 * no zip program or library. Entries are sorted and dated 1980-01-01 (zip's epoch), so the same files always
 * make the same archive.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const DOS_TIME = 0;
const DEFLATE = 8;
const UTF8_NAMES = 1 << 11;

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

interface Entry {
  crc: number;
  packedSize: number;
  size: number;
  nameLength: number;
}

/** The fields a file's local header and its central directory record share, in the same order. */
function writeEntryFields(header: Buffer, at: number, entry: Entry) {
  header.writeUInt16LE(20, at); // needs zip 2.0 (DEFLATE)
  header.writeUInt16LE(UTF8_NAMES, at + 2);
  header.writeUInt16LE(DEFLATE, at + 4);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(entry.crc, at + 10);
  header.writeUInt32LE(entry.packedSize, at + 14);
  header.writeUInt32LE(entry.size, at + 18);
  header.writeUInt16LE(entry.nameLength, at + 22);
}

export function zipFolder(dir: string): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const path of filesUnder(dir)) {
    const name = Buffer.from(relative(dir, path).split(sep).join('/'), 'utf8');
    const data = readFileSync(path);
    const packed = deflateRawSync(data, { level: 9 });

    const entry = { crc: crc32(data), packedSize: packed.length, size: data.length, nameLength: name.length };

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, entry);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: zip 2.0
    writeEntryFields(central, 6, entry);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = centrals.length / 2;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
