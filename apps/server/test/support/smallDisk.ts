// A disk that fills up, for the fault tests: a small tmpfs mounted on a directory (we run as root here and on CI),
// filled with a ballast file so that what is written next does not fit (ENOSPC). Where mount is refused, the file
// size limit of the process that writes (prlimit --fsize on its pid) makes its larger writes fail the same way
// (EFBIG) and its ffmpeg die on them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SmallDisk {
  how: 'tmpfs' | 'prlimit';
  /** Leaves about `roomBytes` for what the process `pid` writes next under the directory. */
  fill(pid: number, roomBytes: number): void;
  /** Gives the space back. */
  free(pid: number): void;
  /** Bytes free on the directory's file system (tmpfs; Infinity under prlimit, which limits files, not space). */
  available(): number;
  /** Unmounts the tmpfs (the processes using it must have ended). Safe to call in any state. */
  release(): void;
}

const BALLAST = 'ballast.bin';

/** Mounts a tmpfs of `sizeBytes` on `dir` (made if missing); falls back to prlimit where mount is refused. */
export function smallDisk(dir: string, sizeBytes: number): SmallDisk {
  mkdirSync(dir, { recursive: true });
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    console.warn(`smallDisk: mount refused (${(error as Error).message.split('\n')[0]}); limiting the file size with prlimit instead`);
  }
  const available = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  if (mounted) {
    return {
      how: 'tmpfs',
      fill(_pid, roomBytes) {
        writeFileSync(join(dir, BALLAST), Buffer.alloc(Math.max(0, available() - roomBytes)));
      },
      free() {
        rmSync(join(dir, BALLAST), { force: true });
      },
      available,
      release() {
        if (!mounted) return;
        try {
          execFileSync('umount', [dir], { stdio: 'pipe' });
        } catch {
          // Still busy (a process that has not ended yet): detach it now, the kernel frees it once unused.
          execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
        }
        mounted = false;
      },
    };
  }
  return {
    how: 'prlimit',
    fill(pid, roomBytes) {
      execFileSync('prlimit', ['--pid', String(pid), `--fsize=${roomBytes}:`], { stdio: 'pipe' });
    },
    free(pid) {
      execFileSync('prlimit', ['--pid', String(pid), '--fsize=unlimited:'], { stdio: 'pipe' });
    },
    available: () => Number.POSITIVE_INFINITY,
    release() {},
  };
}
