import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @reelsmith/server` writes a new SQL migration from the schema; the server applies them at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
