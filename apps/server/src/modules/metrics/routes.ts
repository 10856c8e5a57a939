// GET /metrics in Prometheus's text format, outside the API envelope: this process's counters (registry.ts) and
// the queue as the database holds it, which every process shares, so any process can be scraped for it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import type { AppContext } from '../../context.js';
import { queryRows } from '../../db/client.js';
import { httpDuration, httpRequests, processMetrics } from './registry.js';

export const METRICS_PATH = '/metrics';

/** The queue by kind and status, and how long the oldest waiting task has waited, read at each scrape. */
function queueMetrics({ db }: AppContext): Registry {
  type Row = { kind: string | null; status: string | null; n: number | string; oldest: number | string | null };
  // One statement for both gauges, shared by their collects, so a scrape costs one round trip.
  let reading: Promise<Row[]> | undefined;
  const read = () => {
    reading ??= queryRows<Row>(
      db,
      sql`select kind, status, count(*) as n,
            extract(epoch from now() - min(created_at) filter (where status = 'SUBMITTED')) as oldest
          from tasks where status in ('SUBMITTED', 'IN_PROGRESS') group by kind, status`,
    ).finally(() => {
      reading = undefined;
    });
    return reading;
  };
  const registry = new Registry();
  new Gauge({
    name: 'reelsmith_tasks',
    help: 'Tasks waiting (SUBMITTED) or running (IN_PROGRESS), by kind and status',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const r of rows) this.set({ kind: String(r.kind), status: String(r.status) }, Number(r.n));
    },
  });
  new Gauge({
    name: 'reelsmith_task_oldest_waiting_seconds',
    help: 'How long the oldest waiting task has waited for a worker (0 when none waits)',
    registers: [registry],
    async collect() {
      const rows = await read();
      this.set(Math.max(0, ...rows.map((r) => Number(r.oldest ?? 0))));
    },
  });
  return registry;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries METRICS_TOKEN as a bearer token (compared in constant time). */
function authorised(token: string | undefined, req: FastifyRequest): boolean {
  if (!token) return true;
  const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Counts and times every answer under its route pattern (not the raw URL, which would make a series per id). */
export function recordRequests(app: FastifyInstance) {
  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
}

export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext) {
  const queue = queueMetrics(ctx);
  app.get(METRICS_PATH, async (req, reply) => {
    if (!authorised(ctx.settings.metricsToken, req)) {
      return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain').send('metrics need the METRICS_TOKEN bearer token\n');
    }
    const text = (await Promise.all([processMetrics.metrics(), queue.metrics()])).join('\n');
    return reply.type(processMetrics.contentType).send(text);
  });
}
