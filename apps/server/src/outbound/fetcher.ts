/**
 * The one outbound fetcher (design "Contract details"), shared by link analysis (the product page's HTML) and URL import
 * (files a user names by URL). It fetches with GET only, follows redirects itself so that every hop is
 * checked (scheme, localhost, the addresses its host resolves to; see target.ts), connects to the very
 * address it checked, and bounds the time and the size of the answer. Hosts listed in OUTBOUND_ALLOW_HOSTS
 * (`settings.outboundAllowHosts`) skip the address check, hop by hop, for tests and self-hosted catalogues.
 *
 * Wiring: create one fetcher per server from the settings and hand it to the services that fetch:
 *
 *     const fetchUrl = createFetcher({ allowHosts: settings.outboundAllowHosts });
 *     const page = await fetchUrl(productLink, { maxBytes: 5 * 1024 * 1024 });
 *
 * Media files are not read into memory: `createDownloader` streams the body to a file instead, under the same
 * checks (decision "Import limits").
 *
 * Every failure is an OutboundError whose `reason` the HTTP layer maps to a localised message.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { readBody, saveBody } from './body.js';
import { browserHeaders } from './browser.js';
import { OutboundError } from './errors.js';
import { type Lookup, resolveHop, systemLookup, type Target } from './target.js';

export interface FetcherOptions {
  /** `host:port` entries that may be reached although they are private: `settings.outboundAllowHosts`. */
  allowHosts?: readonly string[];
  /** The whole fetch, redirects and body included; 30 s by default. */
  timeoutMs?: number;
  /** From starting a hop's connection to its answer's headers; 10 s by default. */
  headersTimeoutMs?: number;
  /** The size cap of the (decoded) body unless a fetch sets its own; 20 MiB by default. */
  maxBytes?: number;
  /** 5 by default. */
  maxRedirects?: number;
  /** Tests inject a resolver; the default asks the system, like every other program on the machine. */
  lookup?: Lookup;
}

export interface FetchOptions {
  /** The Accept header, e.g. `image/*` for an image import; a browser's navigation Accept by default. */
  accept?: string;
  maxBytes?: number;
  /** Stops the fetch (a cancelled task); it then fails with the signal's reason. */
  signal?: AbortSignal;
}

export interface Fetched {
  /** Where the last redirect led: relative links in the body resolve against this. */
  finalUrl: string;
  /** Always 2xx: other statuses are OutboundErrors. */
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

export type FetchUrl = (url: string, options?: FetchOptions) => Promise<Fetched>;

export interface Downloaded {
  finalUrl: string;
  contentType: string | undefined;
  /** Bytes written (decoded). */
  size: number;
}

/** Fetches `url` into a new file at `path` (which must not exist yet), never holding the body in memory. */
export type DownloadUrl = (url: string, path: string, options?: FetchOptions) => Promise<Downloaded>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createFetcher(options: FetcherOptions = {}): FetchUrl {
  const fetchWith = hops(options);
  return (input, fetchOptions = {}) =>
    fetchWith(input, fetchOptions, async (response, url, maxBytes) => ({
      finalUrl: url.href,
      status: response.statusCode ?? 0,
      contentType: response.headers['content-type'],
      body: await readBody(response, maxBytes),
    }));
}

export function createDownloader(options: FetcherOptions = {}): DownloadUrl {
  const fetchWith = hops(options);
  return (input, path, fetchOptions = {}) =>
    fetchWith(input, fetchOptions, async (response, url, maxBytes) => ({
      finalUrl: url.href,
      contentType: response.headers['content-type'],
      size: await saveBody(response, maxBytes, path),
    }));
}

/** What is done with the final 2xx answer: read its body, or save it. */
type Consume<T> = (response: IncomingMessage, url: URL, maxBytes: number) => Promise<T>;

/** The checked, redirect-following GET of both fetchers, ending with `consume` of the final answer. */
function hops({
  allowHosts = [],
  timeoutMs = 30_000,
  headersTimeoutMs = 10_000,
  maxBytes: defaultMaxBytes = 20 * 1024 * 1024,
  maxRedirects = 5,
  lookup = systemLookup,
}: FetcherOptions) {
  const allowed = new Set(allowHosts.map((entry) => entry.toLowerCase()));

  return async <T>(input: string, { accept, maxBytes = defaultMaxBytes, signal }: FetchOptions, consume: Consume<T>): Promise<T> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const deadline = signal ? AbortSignal.any([timeout, signal]) : timeout;
    let url = parseUrl(input);
    try {
      // Every method is GET, so a 303 (or a 301/302 after a POST, in browsers) needs no change of method.
      for (let redirects = 0; ; redirects++) {
        const target = await resolveHop(url, { allowHosts: allowed, lookup, signal: deadline });
        const response = await send(url, target, browserHeaders(accept), deadline, headersTimeoutMs);
        try {
          const status = response.statusCode ?? 0;
          const location = REDIRECTS.has(status) ? response.headers.location : undefined;
          if (location === undefined) {
            if (status < 200 || status > 299) throw new OutboundError('http', `${url.host} answered with HTTP ${status}`, status);
            return await consume(response, url, maxBytes);
          }
          if (redirects === maxRedirects) throw new OutboundError('tooManyRedirects', `More than ${maxRedirects} redirects`);
          url = parseUrl(location, url);
        } finally {
          // A redirect's or an error's body is not wanted, and a read body is done with.
          response.destroy();
        }
      }
    } catch (error) {
      // A stop asked for by the caller is theirs to report, not a failure of the fetch.
      if (signal?.aborted) throw signal.reason;
      if (error instanceof OutboundError) throw error;
      if (timeout.aborted) throw new OutboundError('timeout', `Fetching ${url.href} took longer than ${timeoutMs} ms`);
      const detail = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new OutboundError('network', `The connection to ${url.host} failed (${detail})`);
    }
  };
}

function parseUrl(input: string, base?: URL): URL {
  try {
    return new URL(input, base);
  } catch {
    throw new OutboundError('invalidUrl', base ? `The redirect from ${base.href} leads to an invalid URL` : `${input} is not a URL`);
  }
}

/**
 * Starts the hop's GET (or, with a `body`, the webhook dispatcher's POST of it), connected to `target` whatever the
 * name resolves to now; resolves with the answer's headers.
 */
export function send(
  url: URL,
  target: Target,
  headers: Record<string, string>,
  signal: AbortSignal,
  headersTimeoutMs: number,
  body?: string,
): Promise<IncomingMessage> {
  // Node asks for every address when it may race IPv4 against IPv6 (autoSelectFamily); either way it gets the checked one.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
    protocol: url.protocol,
    // The name stays the host, so the Host header and the TLS server name and certificate check are the URL's.
    hostname: target.hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: body === undefined ? 'GET' : 'POST',
    headers,
    lookup: pinned,
    // No pooled socket: each hop connects afresh to the address it checked.
    agent: false,
    signal,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => request.destroy(new OutboundError('timeout', `${url.host} did not answer within ${headersTimeoutMs} ms`)),
      headersTimeoutMs,
    );
    request.once('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
    // `on`, not `once`: an abort or reset while the body is read also lands here and must not go unhandled.
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
