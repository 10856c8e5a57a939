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
 * engine part tells an operator which programs are used, how many tasks wait for a worker, which provider does
 * each generation capability, and which parts the tools need are missing.
 */
export async function checkHealth({ db, storage, settings, providers, parts }: AppContext): Promise<Health> {
  await db.execute(sql`select 1`);
  const [queue] = await queryRows<{ waiting: number | string }>(db, sql`select count(*) as waiting from tasks where status = 'SUBMITTED'`);
  await storage.check();
  // A part missing disables the tools that need it, not the service (decision "Start-up checks"): the probe still
  // answers, and says which parts are missing; what is wrong with them is in the start-up warning and the log.
  const checks = await parts.all();
  let tools: { ffmpeg: string | null; ffprobe: string | null } = { ffmpeg: null, ffprobe: null };
  try {
    tools = mediaToolsOf(settings);
  } catch {
    // Reported as the ffmpeg part missing.
  }
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
      parts: Object.fromEntries(checks.map((c) => [c.part, c.ok ? 'ok' : 'missing'])),
    },
  };
}
