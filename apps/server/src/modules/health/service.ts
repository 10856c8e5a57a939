import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export interface Health {
  db: 'ok';
  queue: 'ok';
  storage: 'ok';
  engine: Record<string, unknown>;
}

/** Where uploaded and generated files live. */
export const filesDirOf = (dataDir: string) => join(dataDir, 'files');

/**
 * Checks what the service needs to work: a database that answers a query and a files directory it can
 * write. The task queue is a table of this database (later issue), so the database check covers it.
 */
export async function checkHealth(db: Db, dataDir: string): Promise<Health> {
  await db.execute(sql`select 1`);
  const files = filesDirOf(dataDir);
  await mkdir(files, { recursive: true });
  await access(files, constants.W_OK);
  return { db: 'ok', queue: 'ok', storage: 'ok', engine: { node: process.version, ffmpeg: null } };
}
