import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, manifest: true },
  // In `vite dev`, the API runs on its own port (npm start serves both from one).
  server: { proxy: { '/reelsmith/api': 'http://127.0.0.1:3000' } },
});
