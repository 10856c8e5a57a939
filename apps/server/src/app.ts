import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import { health } from '@reelsmith/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { handleError } from './http/errors.js';
import { createRouter } from './http/route.js';
import { clientChecks, hostCheck, securityHeaders } from './http/security.js';
import { createUrlSigner } from './http/signedUrl.js';
import { registerAdminRoutes } from './modules/admin/routes.js';
import { registerAssetRoutes } from './modules/assets/routes.js';
import { createAuth, registerAuthRoutes } from './modules/auth/routes.js';
import { registerFileRoutes } from './modules/files/routes.js';
import { registerGenerationRoutes } from './modules/generation/routes.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { registerImageEditRoutes } from './modules/image-edit/routes.js';
import { registerCaptureRoutes } from './modules/link-video/capture/routes.js';
import { registerCatalogueRoutes } from './modules/link-video/catalogue/routes.js';
import { METRICS_PATH, recordRequests, registerMetricsRoute } from './modules/metrics/routes.js';
import { registerPointsRoutes } from './modules/points/routes.js';
import { registerProjectRoutes } from './modules/projects/routes.js';
import { registerReferralRoutes } from './modules/referrals/routes.js';
import { registerTaskRoutes } from './modules/tasks/routes.js';
import { registerUserRoutes } from './modules/users/routes.js';
import { apiBase, type Settings, sessionSecret } from './settings.js';
import { registerWeb } from './web.js';

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

  const auth = createAuth(ctx);
  const signer = createUrlSigner(sessionSecret(settings));
  await app.register(
    async (api) => {
      api.addHook('onRequest', clientChecks(settings));
      const route = createRouter(api, auth.currentUser);
      registerHealthRoutes(route, ctx);
      // A worker process listens only for probes: its health and its metrics.
      if (settings.role !== 'worker') {
        registerAuthRoutes(api, route, ctx, auth);
        registerUserRoutes(route, ctx, auth);
        registerPointsRoutes(route, ctx);
        registerReferralRoutes(route, ctx);
        registerProjectRoutes(api, route, ctx, signer);
        registerFileRoutes(api, route, ctx);
        registerAssetRoutes(route, ctx);
        registerTaskRoutes(route, ctx, ctx.tasks);
        registerCatalogueRoutes(api, route, ctx);
        registerGenerationRoutes(api, route, ctx);
        registerCaptureRoutes(route, ctx);
        registerImageEditRoutes(api, route, ctx);
        registerAdminRoutes(api, ctx);
      }
      api.all('/*', { config: { skipClientChecks: true } }, async () => {
        throw new AppError('notFound');
      });
    },
    { prefix: apiBase(settings) },
  );

  if (settings.role !== 'worker') await registerWeb(app, settings);
  return app;
}
