// The processes of this machine as /proc shows them (Linux), for the fault tests: which programs a server process
// started (its ffmpeg), killing a process together with all it started, and whether any of them is still alive.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The kernel's one-letter state: R, S, D, Z (a zombie: dead, not yet reaped)… */
  state: string;
  /** The program's name (at most 15 characters, as the kernel keeps it). */
  name: string;
  /** The whole command line, arguments separated by spaces. */
  command: string;
}

/** One process, or undefined when it is gone (it may end while it is being read). */
export function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may itself contain spaces or parentheses: the fields follow the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(ppid), state: state as string, name: stat.slice(stat.indexOf('(') + 1, close), command };
  } catch {
    return undefined;
  }
}

export function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => processInfo(Number(entry)))
    .filter((p): p is ProcessInfo => p !== undefined);
}

/** Every process `pid` started, and those they started, at this moment. */
export function descendantsOf(pid: number): ProcessInfo[] {
  const all = allProcesses();
  const found: ProcessInfo[] = [];
  let parents = new Set([pid]);
  while (parents.size > 0) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** Alive: it exists and is not a zombie (a zombie has ended; only its exit status waits to be collected). */
export const isAlive = (pid: number) => {
  const info = processInfo(pid);
  return info !== undefined && info.state !== 'Z';
};

/**
 * SIGKILL for a process and everything it started, as a container runtime or the OOM killer of a cgroup does it.
 * The process is frozen first (SIGSTOP), so it cannot start another child between the listing and the kill.
 * Answers the descendants that were killed.
 */
export function killTree(pid: number): ProcessInfo[] {
  process.kill(pid, 'SIGSTOP');
  const tree = descendantsOf(pid);
  process.kill(pid, 'SIGKILL');
  for (const child of tree) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch (error) {
      // It ended by itself between the listing and the kill.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return tree;
}
