// A scratch directory for a test file's speech, removed after its tests: each call of the answer is a new folder in it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function scratchDirs(prefix: string): () => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return () => {
    const out = join(dir, String(++n));
    mkdirSync(out);
    return out;
  };
}
