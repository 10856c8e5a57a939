// The server's shape, read from its imports: the task engine knows no feature (the composition root hands it the
// task kinds), and no two modules import each other, directly or round a longer loop. Type-only imports are left
// out: they vanish when the code runs, and a type shared both ways (the context and a task's job) is no tangle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/serverProcess.js';

const SRC = join(REPO_ROOT, 'apps/server/src');
const FEATURES = ['assets', 'generation', 'image-edit', 'link-video', 'projects', 'referrals', 'invites', 'users', 'auth', 'admin'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project files a file imports at run time (`import type` and `import { type … }`-only lists left out). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.[^']+)'/gm)) {
    const [, typeOnly, names = '', target = ''] = match;
    const list = /\{([^}]*)\}/.exec(names)?.[1];
    const onlyTypes =
      list !== undefined &&
      !names.replace(/\{[^}]*\}/, '').replace(/[\s,]/g, '') &&
      list.split(',').every((n) => !n.trim() || n.trim().startsWith('type '));
    if (typeOnly || onlyTypes) continue;
    found.push(resolve(dirname(file), target.replace(/\.js$/, '.ts')));
  }
  return found;
}

const graph = new Map(sources(SRC).map((file) => [file, runtimeImports(file)]));
const name = (file: string) => relative(SRC, file);

describe('the server read from its imports', () => {
  it('has a task engine that imports no feature module', () => {
    const engine = [...graph].filter(([file]) => name(file).startsWith('modules/tasks/'));
    expect(engine.length).toBeGreaterThan(3);
    const crossings = engine.flatMap(([file, targets]) =>
      targets.filter((t) => FEATURES.some((f) => name(t).startsWith(`modules/${f}/`))).map((t) => `${name(file)} → ${name(t)}`),
    );
    expect(crossings).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
