/**
 * `npm run build -w @reelsmith/extension`: the unpacked extension in `dist/` (what Chromium loads with
 * --load-extension) and the same files zipped for the Chrome Web Store in `release/`. Three Vite builds: the
 * popup and options pages, the service worker (an ES module), the content script (a classic script, which is all
 * Chrome injects). EXTENSION_APP_ORIGIN sets the default app address and its host permission.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig } from 'vite';
import { manifest } from './manifest';
import { zipFolder } from './zip';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const release = join(root, 'release');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

const appOrigin = new URL(process.env.EXTENSION_APP_ORIGIN ?? 'http://127.0.0.1:3000').origin;

const common: InlineConfig = {
  configFile: false,
  logLevel: 'warn',
  define: { __DEFAULT_APP_ORIGIN__: JSON.stringify(appOrigin) },
  build: { outDir: dist, emptyOutDir: false, minify: true, sourcemap: false, target: 'chrome120', modulePreload: false },
};

await build({
  ...common,
  root: join(root, 'src/pages'),
  base: './',
  publicDir: join(root, 'public'),
  build: {
    ...common.build,
    emptyOutDir: true,
    rollupOptions: { input: { popup: join(root, 'src/pages/popup.html'), options: join(root, 'src/pages/options.html') } },
  },
});

for (const [entry, format] of [
  ['background', 'es'],
  ['content', 'iife'],
] as const) {
  await build({
    ...common,
    publicDir: false,
    build: {
      ...common.build,
      lib: { entry: join(root, `src/${entry}.ts`), formats: [format], name: 'reelsmith', fileName: () => `${entry}.js` },
    },
  });
}

writeFileSync(join(dist, 'manifest.json'), `${JSON.stringify(manifest(version, appOrigin), null, 2)}\n`);
mkdirSync(release, { recursive: true });
const zip = join(release, `reelsmith-extension-${version}.zip`);
writeFileSync(zip, zipFolder(dist));
console.log(`extension: ${dist} and ${zip} (app origin ${appOrigin})`);
