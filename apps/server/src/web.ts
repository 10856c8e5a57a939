import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import type { Settings } from './settings.js';

/** Vite puts content-hashed files under assets/: a new build means new names, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_BUILT = 'The web app is not built yet: run npm run build (npm start builds it for you), then restart the server.';

/** The web app reads the API prefix from this tag at run time, so one build serves any API_PREFIX. */
export function withApiPrefix(html: string, apiPrefix: string): string {
  return html.replace(/<meta\s[^>]*name="api-prefix"[^>]*>/, (tag) => tag.replace(/content="[^"]*"/, `content="${apiPrefix}"`));
}

/**
 * Serves the built single-page app beside the API: its files, and index.html for every other GET so that
 * the app's router handles deep links. Unknown API paths never get here (the API answers them itself).
 */
export async function registerWeb(app: FastifyInstance, settings: Settings) {
  const dist = settings.webDistDir;
  const indexFile = join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    const assets = join(dist, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: dist,
      // index.html is always served by the fallback below, which puts the API prefix in.
      index: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      cacheControl: false,
      setHeaders: (res, path) => res.setHeader('cache-control', path.startsWith(assets) ? IMMUTABLE : 'no-cache'),
    });
  }

  const serveIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    // A missing script or stylesheet must fail as such, not arrive as a page of HTML.
    if (req.url.startsWith('/assets/')) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const html = withApiPrefix(await readFile(indexFile, 'utf8'), settings.apiPrefix);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  // The static files' wildcard would answer "/" with a directory error.
  app.get('/', serveIndex);
  app.setNotFoundHandler(async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('notFound');
    return serveIndex(req, reply);
  });
}
