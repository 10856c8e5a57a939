// The app's page routes as its route table (apps/web/src/app/routes.tsx) lists them, so a browser test that walks
// every page covers a new one without being told.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATHS } from '../../apps/web/src/shared/paths.js';
import { ROOT } from './product.js';

/** Every `page(PATHS.x, …)` row of the route table, as its path; redirect rows are not pages. */
export function pagePaths(): string[] {
  const table = readFileSync(join(ROOT, 'apps/web/src/app/routes.tsx'), 'utf8');
  const keys = [...table.matchAll(/\bpage\(PATHS\.(\w+),/g)].map(([, key]) => key);
  if (keys.length === 0) throw new Error('no page rows found in routes.tsx');
  return keys.map((key) => {
    const path = PATHS[key as keyof typeof PATHS];
    if (!path) throw new Error(`routes.tsx names PATHS.${key}, which paths.ts does not have`);
    return path;
  });
}
