import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import { health } from '@reelsmith/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { handleError } from './http/errors.js';
import type { ServerModule } from './http/module.js';
import { clientChecks, hostCheck, securityHeaders } from './http/security.js';
import { createUrlSigner } from './http/signedUrl.js';
import { adminModule } from './modules/admin/routes.js';
import { apiKeysModule } from './modules/api-keys/routes.js';
import { assetsModule } from './modules/assets/routes.js';
import { authModule, createAuth } from './modules/auth/routes.js';
import { batchesModule } from './modules/batches/routes.js';
import { billingModule } from './modules/billing/routes.js';
import { brandKitModule } from './modules/brand-kit/routes.js';
import { extensionModule } from './modules/extension/routes.js';
import { filesModule } from './modules/files/routes.js';
import { generationModule } from './modules/generation/routes.js';
import { healthModule } from './modules/health/routes.js';
import { imageEditModule } from './modules/image-edit/routes.js';
import { captureModule } from './modules/link-video/capture/routes.js';
import { catalogueModule } from './modules/link-video/catalogue/routes.js';
import { logsModule } from './modules/logs/routes.js';
import { METRICS_PATH, recordRequests, registerMetricsRoute } from './modules/metrics/routes.js';
import { pointsModule } from './modules/points/routes.js';
import { presentersModule } from './modules/presenters/routes.js';
import { projectsModule } from './modules/projects/routes.js';
import { publicApiModule } from './modules/public-api/routes.js';
import { referralsModule } from './modules/referrals/routes.js';
import { tasksModule } from './modules/tasks/routes.js';
import { usersModule } from './modules/users/routes.js';
import { webhooksModule } from './modules/webhooks/routes.js';
import { apiBase, type Settings, sessionSecret } from './settings.js';
import { registerWeb } from './web.js';

/** The API's modules besides health, each one plugin of one shape (http/module.ts). */
const API_MODULES: readonly ServerModule[] = [
  authModule,
  usersModule,
  pointsModule,
  billingModule,
  referralsModule,
  projectsModule,
  filesModule,
  assetsModule,
  tasksModule,
  catalogueModule,
  generationModule,
  captureModule,
  extensionModule,
  imageEditModule,
  brandKitModule,
  presentersModule,
  webhooksModule,
  batchesModule,
  logsModule,
  apiKeysModule,
  publicApiModule,
  adminModule,
];

/** The largest request body accepted; uploads of media go straight to storage, not through JSON bodies. */
const BODY_LIMIT_BYTES = 3 * 1024 * 1024;

/** Request logs without secrets: no headers at all, and paths without their query (invite codes, OAuth codes). */
function loggerOptions(settings: Settings): FastifyServerOptions['logger'] {
  if (settings.logLevel === 'silent') return false;
  return {
    level: settings.logLevel,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    serializers: {
      req: (req) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
    },
  };
}

/** A proxy's X-Request-Id when it is a plain token (so logs of the proxy and ours line up), else a new UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { settings } = ctx;
  const app = Fastify({
    logger: loggerOptions(settings),
    bodyLimit: BODY_LIMIT_BYTES,
    // Unique across processes (Fastify's own ids count from 1 in each), and told to the client to quote.
    genReqId: requestIdOf,
    trustProxy: settings.trustProxy,
  });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  recordRequests(app);
  registerMetricsRoute(app, ctx);

  app.setErrorHandler(handleError);
  app.addHook('onRequest', hostCheck(settings, [METRICS_PATH, `${apiBase(settings)}${health.path}`]));
  // A POST without a body but with a JSON content type is a call without input, not a malformed one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) =>
    body === '' ? done(null, undefined) : parseJson(req, body, done),
  );
  app.decorateRequest('user', null);

  await app.register(fastifyCookie, { secret: sessionSecret(settings) });
  app.addHook('onRequest', securityHeaders(settings));
  // preHandler, so per-user limits can key on the user the route's access check found.
  await app.register(fastifyRateLimit, { global: false, hook: 'preHandler', errorResponseBuilder: () => new AppError('rateLimited') });

  const options = { ctx, auth: createAuth(ctx), signer: createUrlSigner(sessionSecret(settings)) };
  await app.register(
    async (api) => {
      api.addHook('onRequest', clientChecks(settings));
      // A worker process listens only for probes: its health and its metrics.
      const modules = settings.role === 'worker' ? [healthModule] : [healthModule, ...API_MODULES];
      for (const module of modules) await api.register(module, options);
      api.all('/*', { config: { skipClientChecks: true } }, async () => {
        throw new AppError('notFound');
      });
    },
    { prefix: apiBase(settings) },
  );

  if (settings.role !== 'worker') await registerWeb(app, settings);
  return app;
}
