import type { FastifyHelmetOptions } from '@fastify/helmet';
import { CLIENT_HEADER, CLIENT_WEB } from '@reelsmith/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Settings } from '../settings.js';

/**
 * Security headers for everything we serve. The CSP fits the built single-page app: our own scripts and
 * styles, inline styles because antd writes its CSS-in-JS into <style> tags, images from anywhere on https
 * (product photos, Google avatars) and blobs/data URLs for previews.
 */
export function helmetOptions(settings: Settings): FastifyHelmetOptions {
  const https = settings.publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Over plain http (the default local set-up) upgrading would break every request.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https,
  };
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(req: FastifyRequest): string | undefined {
  const { origin, referer } = req.headers;
  if (origin) return origin;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * The checks every call of the web app passes (design §3): the `client: WEB` header, and for requests that
 * change state an Origin (or Referer) that is ours, PUBLIC_URL's or the Host the request was sent to.
 */
export function clientChecks(settings: Settings) {
  const publicOrigin = new URL(settings.publicUrl).origin;
  return async (req: FastifyRequest) => {
    if (req.routeOptions.config.skipClientChecks) return;
    if (req.headers[CLIENT_HEADER] !== CLIENT_WEB) throw new AppError('clientHeader');
    if (!STATE_CHANGING.has(req.method)) return;
    const origin = originOf(req);
    if (origin !== publicOrigin && origin !== `http://${req.headers.host}`) throw new AppError('forbiddenOrigin');
  };
}
