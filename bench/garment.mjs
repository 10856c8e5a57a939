// Benchmark of the clothing check (`checkGarment`, decisions "Clothing check", "Worn garments" and "Garment check
// reads the picture") on real photos labelled by hand: bench/garment-labels.json maps each photo (its path under the
// photo folder) to the verdict a person gives it: a garment alone on a flat white backdrop → its type (top, bottom,
// onePiece); a garment someone wears → worn; a thing that is no garment → typeNotSupported (nothing at all →
// noCloth); a busy or coloured set with no person → background; a picture breaking the file rules → size or format.
// The photos stay where they are: they are never copied into the repository.
// Run from the repo root: node bench/garment.mjs
// GARMENT_PHOTOS (the photo folder, default /work/shared/real-photos) and GARMENT_LABELS (the labels file).
// It prints, per verdict, precision and recall (with the counts), the confusion list (path, expected, got), the
// accuracy, and the time per picture: the first one (which loads the models) apart, then median and worst.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { checkGarment } = await import('../packages/media/src/index.ts');

const photos = process.env.GARMENT_PHOTOS || '/work/shared/real-photos';
const labels = JSON.parse(readFileSync(process.env.GARMENT_LABELS || new URL('./garment-labels.json', import.meta.url), 'utf8'));

const rows = [];
for (const [path, expected] of Object.entries(labels)) {
  const start = performance.now();
  let got;
  try {
    const check = await checkGarment(join(photos, path));
    got = check.ok ? check.garmentType : check.reason;
  } catch (error) {
    got = `error: ${error instanceof Error ? error.message : String(error)}`;
  }
  rows.push({ path, expected, got, ms: performance.now() - start });
}

const verdicts = [...new Set(rows.flatMap((r) => [r.expected, r.got]))].sort();
const pct = (n, d) => (d === 0 ? '   —' : `${((100 * n) / d).toFixed(0).padStart(3)} %`);
console.log(`clothing check on ${rows.length} labelled photos (${photos})\n`);
console.log('verdict            precision        recall');
for (const v of verdicts) {
  const truePos = rows.filter((r) => r.expected === v && r.got === v).length;
  const said = rows.filter((r) => r.got === v).length;
  const real = rows.filter((r) => r.expected === v).length;
  const precision = `${v.padEnd(18)} ${pct(truePos, said)} (${truePos}/${said})`;
  console.log(`${precision.padEnd(36)}${pct(truePos, real)} (${truePos}/${real})`);
}
const wrong = rows.filter((r) => r.expected !== r.got);
console.log(`\naccuracy: ${rows.length - wrong.length}/${rows.length} (${pct(rows.length - wrong.length, rows.length).trim()})`);
console.log(`\nconfusions (${wrong.length}):`);
for (const r of wrong) console.log(`  ${r.path}: expected ${r.expected}, got ${r.got}`);
const [first, ...rest] = rows.map((r) => r.ms);
const sorted = [...rest].sort((a, b) => a - b);
console.log(
  `\ntime per picture: first ${(first / 1000).toFixed(2)} s (loads the models), then median ${(
    (sorted[sorted.length >> 1] ?? 0) / 1000
  ).toFixed(2)} s, worst ${((sorted[sorted.length - 1] ?? 0) / 1000).toFixed(2)} s`,
);
