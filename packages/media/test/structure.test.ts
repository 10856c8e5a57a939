// The media engine's floors point down (decision "The ad engine"): the ad (its plan, templates, cards, composeAd)
// over the renderer (timeline, framing, stills, pieces, clips, encoding) over the middle (imaging, speech, music,
// script, captions) over the core (running programs, finding tools, probing, fonts, the brand). A file imports its
// own floor or lower, and no files import each other in a circle, types included.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../src');

/** Each top folder's floor; files at the top (run.ts, tools.ts, probe.ts…) are the core. */
const FLOORS: Record<string, number> = {
  ad: 3,
  templates: 3,
  render: 2,
  imaging: 1,
  speech: 1,
  music: 1,
  script: 1,
  captions: 1,
  brand: 0,
};
const FLOOR_NAMES = ['core', 'middle', 'render', 'ad'];

export const floorOf = (file: string) => FLOORS[file.split(sep)[0] as string] ?? 0;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield relative(SRC, path);
  }
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;

/** The engine's files (the index, which only re-exports, left out) and the files each imports. */
export function importGraph(read: (file: string) => string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    if (file === 'index.ts') continue;
    const targets = [...read(file).matchAll(IMPORT)].map(([, specifier]) =>
      normalize(join(dirname(file), specifier as string)).replace(/\.js$/, '.ts'),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Imports that go up a floor, as "file (floor) → target (floor)". */
export function upward(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets)
      if (floorOf(target) > floorOf(file))
        found.push(`${file} (${FLOOR_NAMES[floorOf(file)]}) → ${target} (${FLOOR_NAMES[floorOf(target)]})`);
  return found;
}

/** The circles of files importing each other (strongly connected groups of more than one, or a file importing itself). */
export function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    indices.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!indices.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, indices.get(target) as number));
    }
    if (low.get(file) === indices.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file)?.includes(file)) found.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!indices.has(file)) visit(file);
  return found;
}

describe('the media engine’s structure', () => {
  const graph = importGraph((file) => readFileSync(join(SRC, file), 'utf8'));

  it('reads every file of the engine', () => {
    expect(graph.size).toBeGreaterThan(80);
    expect([...graph.keys()]).toContain(join('ad', 'composeAd.ts'));
  });

  it('imports only down its floors: ad → render → imaging, speech, music, script, captions → core', () => {
    expect(upward(graph)).toEqual([]);
  });

  it('has no circle of files importing each other', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('catches a planted upward import and a planted circle', () => {
    const planted = importGraph((file) => {
      const text = readFileSync(join(SRC, file), 'utf8');
      if (file === join('render', 'piece.ts')) return `${text}\nimport '../templates/cards.js';`;
      if (file === join('music', 'beats.ts')) return `${text}\nimport './bed.js';`;
      return text;
    });
    expect(upward(planted)).toContain('render/piece.ts (render) → templates/cards.ts (ad)');
    expect(circles(planted).some((group) => group.includes(join('music', 'beats.ts')) && group.includes(join('music', 'bed.ts')))).toBe(
      true,
    );
  });
});
