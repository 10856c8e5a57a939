import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_HEADER, CLIENT_WEB } from '@reelsmith/contract';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { AppError } from '../errors.js';
import { DOWNLOADED_EXTENSION_ORIGIN } from '../modules/extension/download.js';
import { storageOrigins } from '../modules/files/storage/origins.js';
import { apiBase, type Settings } from '../settings.js';

/**
 * helmet's options for the web app's pages and files. The CSP fits the built single-page app: our own
 * scripts and styles, inline styles because antd writes its CSS-in-JS into <style> tags, images from
 * anywhere on https (product photos, Google avatars) and blobs/data URLs for previews. Files in an S3 bucket
 * are uploaded, shown and played straight from its origin (`files`).
 */
function pageOptions(https: boolean, files: string[]): HelmetOptions {
  // Served over plain http (a local or development set-up), pictures from plain-http shops and test servers show
  // too: a picture being imported is shown from its link until it is stored. Over https they would be mixed content.
  const pictures = https ? ['https:'] : ['https:', 'http:'];
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...pictures, ...files],
        mediaSrc: ["'self'", 'blob:', ...pictures, ...files],
        connectSrc: ["'self'", ...files],
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

/**
 * helmet's options for API answers: JSON is never a page, so it needs only to stay JSON (nosniff), to load
 * nothing and be framed nowhere if a browser opens it, and to stay on our origin. The page headers would
 * triple the size of a small answer.
 */
function apiOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: https,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

/** The headers helmet sets with some options. They do not vary by request, so they are worked out once. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Security headers for every answer: the page set for the web app, the API set under the API prefix.
 * Building them per request (as @fastify/helmet does) took an eighth of the time of a signed-in call.
 */
export function securityHeaders(settings: Settings): onRequestHookHandler {
  // Browsers reach us over https: PUBLIC_URL says so, or SECURE_COOKIES for a TLS-terminating proxy.
  const https = settings.secureCookies;
  const page = headersOf(pageOptions(https, storageOrigins(settings.storage)));
  const api = headersOf(apiOptions(https));
  const apiPath = `${apiBase(settings)}/`;
  return (req, reply, done) => {
    reply.headers(req.url.startsWith(apiPath) ? api : page);
    done();
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

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A Host header: a name or an IPv4 address, or a bracketed IPv6 address, and an optional port. */
const HOST = /^(?<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

const hostnameOf = (host: string | undefined) => (host ? HOST.exec(host)?.groups?.name?.toLowerCase() : undefined);

/**
 * Who may be this service (decision "Host and Origin"): browsers reach it only at PUBLIC_URL's host, and outside
 * production also at a loopback name (a developer opening localhost for 127.0.0.1). A page that re-binds its own
 * name to our address (DNS rebinding) sends its own name as Host and is refused before any route runs.
 */
export function hostCheck(settings: Settings, exempt: readonly string[]): onRequestHookHandler {
  const publicHost = new URL(settings.publicUrl).host;
  const open = new Set(exempt);
  return (req, _reply, done) => {
    // Probes and scrapers call a pod by its own address; they read nothing a user owns.
    if (open.has(req.url.split('?')[0] as string)) return done();
    const host = req.host;
    if (host === publicHost) return done();
    const name = hostnameOf(host);
    const loopback = !settings.production && name !== undefined && LOOPBACK_NAMES.has(name);
    done(loopback ? undefined : new AppError('forbiddenHost'));
  };
}

/**
 * The origins whose pages may change state: PUBLIC_URL's, and outside production the same port under another
 * loopback name over plain http. Never the Host the request names: a rebinding page chooses that.
 */
function originsOf(settings: Settings): Set<string> {
  const publicUrl = new URL(settings.publicUrl);
  const origins = new Set([publicUrl.origin]);
  if (!settings.production && publicUrl.protocol === 'http:') {
    for (const name of LOOPBACK_NAMES) origins.add(`http://${name}${publicUrl.port ? `:${publicUrl.port}` : ''}`);
  }
  return origins;
}

/**
 * The checks every call of the web app passes (design "API rules"): the `client: WEB` header, and for requests that
 * change state an Origin (or Referer) that is ours (`originsOf`). The few calls the browser extension makes also
 * accept the origins of the extensions the operator listed in EXTENSION_ORIGINS: a page cannot forge a
 * `chrome-extension://` Origin, and an extension not listed is refused.
 */
export function clientChecks(settings: Settings): onRequestHookHandler {
  const ours = originsOf(settings);
  // The extension this server hands out is its own (decision "Extension download"), listed or not.
  const extensions = new Set([...settings.extensionOrigins, DOWNLOADED_EXTENSION_ORIGIN]);
  return (req, _reply, done) => {
    const config = req.routeOptions.config;
    if (config.skipClientChecks) return done();
    if (req.headers[CLIENT_HEADER] !== CLIENT_WEB) return done(new AppError('clientHeader'));
    if (!STATE_CHANGING.has(req.method)) return done();
    const origin = originOf(req);
    const extension = config.fromExtension === true && origin !== undefined && extensions.has(origin);
    done((origin !== undefined && ours.has(origin)) || extension ? undefined : new AppError('forbiddenOrigin'));
  };
}
