// What the benchmarks read from /proc about the processes they start.
import { readdirSync, readFileSync } from 'node:fs';

/** The sum of resident memory of this process's children and their children, read from /proc. */
export function childrenRss() {
  const parents = new Map();
  const rss = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(pid, fields[1]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // The process ended between listing and reading.
    }
  }
  const ours = new Set([String(process.pid)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!ours.has(pid) && ours.has(parent)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  ours.delete(String(process.pid));
  let total = 0;
  for (const pid of ours) total += rss.get(pid) ?? 0;
  return total;
}

/** The load average over 1, 5 and 15 minutes. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
