import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { queryRows } from '../../db/client.js';
import { providerNames } from '../../providers/registry.js';
import { mediaToolsOf } from '../files/workDir.js';

export interface Health {
  db: 'ok';
  queue: 'ok';
  storage: 'ok';
  engine: Record<string, unknown>;
}

/**
 * Checks what the service needs to work: a database that answers, the task queue in it, a file storage it can
 * write, and the media programs the local engine runs. Any failure answers an error instead of "ok". The
 * engine part tells an operator which programs are used, how many tasks wait for a worker, and which provider does
 * each generation capability.
 */
export async function checkHealth({ db, storage, settings, providers }: AppContext): Promise<Health> {
  await db.execute(sql`select 1`);
  const [queue] = await queryRows<{ waiting: number | string }>(db, sql`select count(*) as waiting from tasks where status = 'SUBMITTED'`);
  await storage.check();
  const tools = mediaToolsOf(settings);
  return {
    db: 'ok',
    queue: 'ok',
    storage: 'ok',
    engine: {
      node: process.version,
      ffmpeg: tools.ffmpeg,
      ffprobe: tools.ffprobe,
      waitingTasks: Number(queue?.waiting ?? 0),
      providers: providerNames(providers),
    },
  };
}
