// The deployment as far as it can be tried without a container engine: the Dockerfile and compose file hold what
// production needs, and the image's own start command starts in production mode outside Docker (on the local
// PostgreSQL, files in an S3 protocol server), refuses bad settings at once, and stops cleanly.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { testDatabases } from './support/databases.js';
import { freePort, MAIN, printed, REPO_ROOT, requestAs, type ServerProcess, startServer, whenHealthy } from './support/serverProcess.js';

const postgres = testDatabases().find((d) => d.name === 'postgres');
if (!postgres) console.warn('deploy.test.ts: production starts skipped: TEST_DATABASE_URL is unset (production mode needs PostgreSQL)');

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'p'.repeat(40),
  PUBLIC_URL: 'https://studio.example',
  GOOGLE_CLIENT_ID: 'client-id',
  GOOGLE_CLIENT_SECRET: 'client-secret',
  LOG_LEVEL: 'info',
};

describe('the image and the compose file', () => {
  const dockerfile = read('Dockerfile');
  const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)].map((m) => ({ image: m[1], name: m[2] }));
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds in stages: npm ci, the web build, production dependencies, a node:20-bookworm-slim runtime', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(stages.at(-1)?.image).toBe('node:20-bookworm-slim');
    expect(dockerfile).toMatch(/^RUN npm install -g npm@11[.\d]* [^\n]*&& npm ci\b/m);
    expect(dockerfile).toMatch(/npm run build/);
    expect(runtime).toMatch(/COPY --from=web \/app\/apps\/web\/dist/);
    expect(runtime).not.toMatch(/npm (ci|install)\b/);
  });

  it('runs as an unprivileged user in production mode with the npm ffmpeg and the CJK fonts, started by the tested command', () => {
    expect(runtime).toMatch(/apt-get install[^\n]*\bfonts-noto-cjk\b/);
    // The ffmpeg npm installs is the one the product takes (decision "The bundled ffmpeg first"): none from Debian.
    expect(runtime).not.toMatch(/apt-get install[^\n]*\bffmpeg\b|FFMPEG_PATH|FFPROBE_PATH/);
    // Nothing the product needs comes from Debian (decision "Node and npm at run time"): the music's SoundFont is an
    // npm package's, and of its files the GPL-2 one is not shipped.
    expect(runtime).not.toMatch(/fluidsynth|soundfont/i);
    expect(dockerfile).toMatch(/rm -f node_modules\/@librescore\/sf3\/TimGM6mb\*/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(runtime).toMatch(/HEALTHCHECK[\s\S]*\/api\/health/);
    const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1];
    // The same start command the tests run outside Docker (support/serverProcess.ts), from /app.
    expect(JSON.parse(cmd as string)).toEqual(['node', '--import', 'tsx', 'apps/server/src/main.ts']);
    expect(MAIN).toBe(join(REPO_ROOT, 'apps/server/src/main.ts'));
  });

  it('keeps dependencies, builds, data and secrets out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', 'data', '.git', '.env']) expect(ignored).toContain(entry);
  });

  it('composes PostgreSQL 15, MinIO with its bucket, and the API and workers of one image on them', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<
        string,
        { image?: string; build?: string; environment?: Record<string, string>; depends_on?: object; deploy?: object }
      >;
      volumes: Record<string, unknown>;
    };
    const { services } = compose;
    expect(services.postgres?.image).toBe('postgres:15');
    expect(services.minio?.image).toMatch(/^minio\/minio/);
    expect(JSON.stringify(services.bucket)).toMatch(/mc mb --ignore-existing store\/reelsmith/);
    for (const [name, role] of [
      ['api', 'api'],
      ['worker', 'worker'],
    ] as const) {
      const service = services[name];
      expect(service?.build).toBe('.');
      expect(service?.environment).toMatchObject({ ROLE: role, NODE_ENV: 'production', STORAGE_DRIVER: 's3', S3_BUCKET: 'reelsmith' });
      expect(service?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(service?.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    }
    expect(services.worker?.deploy).toMatchObject({ replicas: 2 });
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['pgdata', 'miniodata']));
  });
});

describe('the start command in production mode', () => {
  const started: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of started) s.child.kill('SIGKILL');
    await Promise.all(started.map((s) => s.exited));
  });
  const start = async (env: Record<string, string>) => {
    const server = startServer(env, await freePort());
    started.push(server);
    return server;
  };

  it('refuses to start without what production needs: one line per problem on stderr, exit code 1', async () => {
    const server = await start({ NODE_ENV: 'production', DEV_LOGIN: 'true' });
    const began = Date.now();
    expect(await server.exited).toBe(1);
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(printed(server)).toEqual([
      expect.stringMatching(/^Invalid setting DATABASE_URL: required in production/),
      expect.stringMatching(/^Invalid setting SESSION_SECRET: required in production/),
      expect.stringMatching(/^Invalid setting PUBLIC_URL: must be https in production/),
      expect.stringMatching(/^Invalid setting DEV_LOGIN: dev sign-in is refused in production/),
      expect.stringMatching(/^Invalid setting GOOGLE_CLIENT_ID \/ GOOGLE_CLIENT_SECRET: required in production/),
      expect.stringMatching(/^Invalid setting METRICS_TOKEN: required in production/),
    ]);
  }, 30_000);

  describe.skipIf(!postgres)('on PostgreSQL and S3', () => {
    const BUCKET = 'reelsmith-prod';
    let dir = '';
    let s3: S3rver;
    let endpoint = '';
    let databaseUrl = '';
    let closeDatabase: () => Promise<void> = async () => {};
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'reelsmith-deploy-'));
      s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET }] });
      endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
      // An empty database: the processes migrate it themselves.
      const database = await (postgres as NonNullable<typeof postgres>).open();
      databaseUrl = database.url as string;
      await database.db.execute('drop schema public cascade; drop schema drizzle cascade; create schema public');
      closeDatabase = () => database.close();
    });
    afterAll(async () => {
      for (const s of started) s.child.kill('SIGKILL');
      await Promise.all(started.map((s) => s.exited));
      await closeDatabase();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const productionEnv = (extra: Record<string, string> = {}) => ({
      ...PRODUCTION,
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(dir, `data-${Math.random().toString(36).slice(2)}`),
      STORAGE_DRIVER: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      METRICS_TOKEN: 'metrics-token-0123456789',
      ...extra,
    });

    it('migrates an empty database once when three processes start at once, then serves in production mode', async () => {
      const [api, ...workers] = await Promise.all([
        start(productionEnv({ ROLE: 'api' })),
        start(productionEnv({ ROLE: 'worker' })),
        start(productionEnv({ ROLE: 'worker' })),
      ]);
      await Promise.all([api, ...workers].map((s) => whenHealthy(s as ServerProcess)));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      await client.end();
      const migrations = readdirSync(join(REPO_ROOT, 'apps/server/src/db/migrations')).filter((f) => f.endsWith('.sql'));
      expect(rows[0].n).toBe(migrations.length);

      const base = (api as ServerProcess).base;
      const health = await fetch(`${base}/reelsmith/api/health`);
      expect(await health.json()).toMatchObject({ code: 0, data: { db: 'ok', queue: 'ok', storage: 'ok' } });
      // Browsers are told to stay on https, and each answer names its request.
      expect(health.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // Browsers reach it through the proxy at PUBLIC_URL's host; the name a request was sent to is checked.
      const host = 'studio.example';
      const config = await requestAs(host, `${base}/reelsmith/api/auth/config`, { headers: { client: 'WEB' } });
      expect((config.json() as { data: unknown }).data).toEqual({ google: true, devLogin: false });
      expect((await fetch(`${base}/reelsmith/api/auth/config`, { headers: { client: 'WEB' } })).status).toBe(403);
      const devLogin = await requestAs(host, `${base}/reelsmith/api/auth/dev-login`, {
        method: 'POST',
        headers: { client: 'WEB', origin: 'https://studio.example', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com' }),
      });
      expect((devLogin.json() as { code: number }).code).toBe(404);

      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const metrics = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
      const text = await metrics.text();
      expect(text).toMatch(/^# TYPE reelsmith_http_requests_total counter$/m);
      expect(text).toMatch(/^# TYPE reelsmith_http_request_duration_seconds histogram$/m);
      expect(text).toMatch(/^reelsmith_task_oldest_waiting_seconds 0$/m);
      // A worker answers only probes.
      const worker = workers[0] as ServerProcess;
      expect((await requestAs(host, `${worker.base}/reelsmith/api/users/me`, { headers: { client: 'WEB' } })).status).toBe(404);
      expect((await fetch(`${worker.base}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } })).status).toBe(200);

      for (const s of [api, ...workers] as ServerProcess[]) s.child.kill('SIGTERM');
      expect(await Promise.all([api, ...workers].map((s) => (s as ServerProcess).exited))).toEqual([0, 0, 0]);
      // Every line the API process wrote, but the two plain start-up lines, is a JSON log record.
      const plain = printed(api as ServerProcess).filter((l) => !l.startsWith('{'));
      expect(plain).toEqual(['Reelsmith is running at https://studio.example', expect.stringMatching(/^Invitation code: /)]);
      const logs = (api as ServerProcess).logs();
      expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['started', 'shutting down', 'stopped']));
    }, 120_000);

    it('refuses to start when the bucket cannot be written: one line, exit code 1', async () => {
      const server = await start(productionEnv({ ROLE: 'api', S3_BUCKET: 'no-such-bucket' }));
      expect(await server.exited).toBe(1);
      expect(printed(server)).toEqual([expect.stringMatching(/^The file storage \(s3\) cannot be written: /)]);
    }, 60_000);
  });
});
