import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Modules the build may leave out when nothing of theirs is used (decision "First-load bundle split"): the contract's
 * (no module of it does anything on import, so a page that takes a constant does not get every schema and zod with
 * it) and antd's rc-component and ant-design helpers, which declare no `sideEffects` and whose barrels would otherwise
 * bring whole components (a form, a colour picker) into the entry.
 */
const SIDE_EFFECT_FREE = /\/packages\/contract\/src\/|\/node_modules\/(@rc-component|@ant-design)\//;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    manifest: true,
    rolldownOptions: { treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id) } },
  },
  // In `vite dev`, the API runs on its own port (npm start serves both from one).
  server: { proxy: { '/reelsmith/api': 'http://127.0.0.1:3000' } },
});
