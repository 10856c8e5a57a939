import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, type OutboundReason } from '../src/outbound/errors.js';
import { createFetcher, type FetcherOptions, type FetchUrl } from '../src/outbound/fetcher.js';
import type { Lookup } from '../src/outbound/target.js';

/** Names the fake DNS knows; anything else does not resolve. */
const ZONE: Record<string, string[]> = {
  'evil.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.215.14', '10.0.0.1'],
  'loopback6.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
};

const fakeLookup: Lookup = async (hostname) => {
  const addresses = ZONE[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const LIMIT = 64 * 1024;

/** The site the fetches reach: each path plays one kind of server. */
function site(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://site');
  const [, route, arg = ''] = url.pathname.split('/');
  const redirect = (status: number, location: string) => response.writeHead(status, { Location: location }).end();
  switch (route) {
    case 'ok':
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<h1>product</h1>');
      return;
    case 'headers':
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(request.headers));
      return;
    case 'redirect':
      redirect(302, url.searchParams.get('to') ?? '/');
      return;
    // /chain/3 redirects three times, relatively, before answering.
    case 'chain':
      if (Number(arg) > 0) redirect(301, `/chain/${Number(arg) - 1}`);
      else response.end('end of chain');
      return;
    case 'relative':
      redirect(307, '../ok?from=relative');
      return;
    case 'see-other':
      redirect(303, 'http://evil.test/');
      return;
    case 'no-location':
      response.writeHead(302).end();
      return;
    case 'status':
      response.writeHead(Number(arg)).end('nope');
      return;
    case 'stream':
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      for (let left = Number(arg); left > 0; left -= 1000) response.write(Buffer.alloc(Math.min(1000, left), 1));
      response.end();
      return;
    // Declares a body over the cap and never sends it: only an early refusal ends this quickly.
    case 'declared':
      response.writeHead(200, { 'Content-Length': String(LIMIT * 100) }).flushHeaders();
      return;
    case 'gzip':
      response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(Buffer.from(arg.repeat(1000))));
      return;
    case 'bomb':
      response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(Buffer.alloc(5 * 1024 * 1024)));
      return;
    case 'odd-encoding':
      response.writeHead(200, { 'Content-Encoding': 'compress' }).end('x');
      return;
    case 'hang':
      return;
    case 'trickle': {
      response.writeHead(200).flushHeaders();
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    default:
      response.writeHead(404).end();
  }
}

let server: Server;
let port: number;
/** A local server that no one is allowed to reach; its port is not allow-listed. */
let origin: string;

/** A fetcher that may reach the test server (and nothing else private), with short timeouts. */
const fetcherFor = (options: FetcherOptions = {}): FetchUrl =>
  createFetcher({
    allowHosts: [`127.0.0.1:${port}`],
    lookup: fakeLookup,
    headersTimeoutMs: 300,
    timeoutMs: 3000,
    maxBytes: LIMIT,
    ...options,
  });

/** The OutboundError a fetch fails with. */
async function refusal(fetch: Promise<unknown>): Promise<OutboundError> {
  const error = await fetch.then(
    () => new Error('the fetch succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

beforeAll(async () => {
  server = createServer(site).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

describe('outbound fetcher: refused targets', () => {
  const strict = () => createFetcher({ lookup: fakeLookup });

  it.each<[string, string]>([
    ['http://127.0.0.1/', '127.0.0.1 is not a public address (loopback)'],
    ['http://0.0.0.0/', '0.0.0.0 is not a public address ("this network")'],
    ['http://[::1]/', '::1 is not a public address (loopback)'],
    ['http://[::]/', ':: is not a public address (unspecified)'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is not a public address (loopback)'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is not a public address (loopback)'],
    ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe is not a public address (cloud metadata)'],
    ['http://[64:ff9b::a00:1]/', '64:ff9b::a00:1 is not a public address (private)'],
    ['http://[2002:c0a8:101::1]/', '2002:c0a8:101::1 is not a public address (private)'],
    ['http://2130706433/', '127.0.0.1 is not a public address (loopback)'],
    ['http://0x7f000001/', '127.0.0.1 is not a public address (loopback)'],
    ['http://0177.0.0.1/', '127.0.0.1 is not a public address (loopback)'],
    ['http://127.1/', '127.0.0.1 is not a public address (loopback)'],
    ['http://10.0.0.1/', '10.0.0.1 is not a public address (private)'],
    ['http://172.16.0.1/', '172.16.0.1 is not a public address (private)'],
    ['http://172.31.255.255/', '172.31.255.255 is not a public address (private)'],
    ['http://192.168.1.1/', '192.168.1.1 is not a public address (private)'],
    ['http://100.64.0.1/', '100.64.0.1 is not a public address (shared (carrier-grade NAT))'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address (cloud metadata)'],
    ['http://169.254.1.1/', '169.254.1.1 is not a public address (link-local)'],
    ['http://[fd00::1]/', 'fd00::1 is not a public address (unique local (private))'],
    ['http://[fe80::1]/', 'fe80::1 is not a public address (link-local)'],
    ['http://224.0.0.1/', '224.0.0.1 is not a public address (multicast)'],
    ['http://[ff02::1]/', 'ff02::1 is not a public address (multicast)'],
    ['http://198.18.0.1/', '198.18.0.1 is not a public address (benchmarking)'],
    ['http://192.0.2.1/', '192.0.2.1 is not a public address (documentation)'],
    ['http://240.0.0.1/', '240.0.0.1 is not a public address (reserved)'],
    ['http://255.255.255.255/', '255.255.255.255 is not a public address (broadcast)'],
    ['https://127.0.0.1:8443/', '127.0.0.1 is not a public address (loopback)'],
    ['http://localhost/', 'localhost is this server (localhost)'],
    ['http://LocalHost./', 'localhost. is this server (localhost)'],
    ['http://shop.localhost:8080/', 'shop.localhost is this server (localhost)'],
  ])('%s', async (url, message) => {
    const error = await refusal(strict()(url));
    expect(error.reason).toBe('blockedAddress');
    expect(error.message).toContain(message);
  });

  it('reads numeric host forms as the dotted quad they mean', () => {
    for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '0x7f.1']) {
      expect(new URL(`http://${host}/`).hostname).toBe('127.0.0.1');
    }
  });

  it.each<[string, string]>([
    ['evil.test', 'evil.test resolves to 127.0.0.1, which is not a public address (loopback)'],
    ['metadata.test', 'metadata.test resolves to 169.254.169.254, which is not a public address (cloud metadata)'],
    ['mixed.test', 'mixed.test resolves to 10.0.0.1, which is not a public address (private)'],
    ['loopback6.test', 'loopback6.test resolves to ::1, which is not a public address (loopback)'],
    ['mapped.test', 'mapped.test resolves to ::ffff:127.0.0.1, which is not a public address (loopback)'],
    ['nat64.test', 'nat64.test resolves to 64:ff9b::a9fe:a9fe, which is not a public address (cloud metadata)'],
  ])('a name that resolves to a refused address: %s', async (host, message) => {
    const error = await refusal(strict()(`http://${host}/`));
    expect(error).toMatchObject({ reason: 'blockedAddress', message: expect.stringContaining(message) });
  });

  it.each([
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/_x',
    'ftp://example.com/a',
    'data:text/html,<b>hi</b>',
    'javascript:alert(1)',
    'ws://example.com/',
  ])('the scheme of %s', async (url) => {
    const error = await refusal(strict()(url));
    expect(error.reason).toBe('protocol');
    expect(error.message).toMatch(/^Only http and https links can be fetched, not [a-z]+:$/);
  });

  it('says so when a name does not resolve or the input is not a URL', async () => {
    expect(await refusal(strict()('http://nowhere.test/'))).toMatchObject({ reason: 'dns', message: expect.stringContaining('ENOTFOUND') });
    expect(await refusal(strict()('not a link'))).toMatchObject({ reason: 'invalidUrl', message: 'not a link is not a URL' });
  });
});

describe('outbound fetcher: allow-list and redirects', () => {
  it('reaches a private host:port only when it is allow-listed', async () => {
    expect((await refusal(createFetcher()(`${origin}/ok`))).reason).toBe('blockedAddress');
    const page = await fetcherFor()(`${origin}/ok`);
    expect(page).toMatchObject({ finalUrl: `${origin}/ok`, status: 200, contentType: 'text/html; charset=utf-8' });
    expect(page.body.toString()).toBe('<h1>product</h1>');
  });

  it('matches the allow-list against the host as the URL parser normalises it', async () => {
    expect((await fetcherFor()(`http://0x7f000001:${port}/ok`)).finalUrl).toBe(`${origin}/ok`);
  });

  it.each<[string, OutboundReason, string]>([
    ['http://127.0.0.1:1/', 'blockedAddress', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'blockedAddress', 'cloud metadata'],
    ['http://[::1]:{port}/ok', 'blockedAddress', 'loopback'],
    ['http://[::ffff:127.0.0.1]:{port}/ok', 'blockedAddress', 'loopback'],
    ['http://localhost:{port}/ok', 'blockedAddress', 'localhost'],
    ['http://2130706433/ok', 'blockedAddress', '127.0.0.1 is not a public address (loopback)'],
    ['http://10.0.0.1/', 'blockedAddress', 'private'],
    ['http://evil.test:{port}/ok', 'blockedAddress', 'evil.test resolves to 127.0.0.1'],
    ['file:///etc/passwd', 'protocol', 'not file:'],
  ])('refuses a redirect from the allowed server to %s', async (to, reason, message) => {
    const error = await refusal(fetcherFor()(`${origin}/redirect?to=${encodeURIComponent(to.replace('{port}', String(port)))}`));
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(message);
  });

  it('checks a 303 hop like any other', async () => {
    expect(await refusal(fetcherFor()(`${origin}/see-other`))).toMatchObject({ reason: 'blockedAddress' });
  });

  it('follows relative redirects and reports where they ended', async () => {
    const page = await fetcherFor()(`${origin}/relative/deep`);
    expect(page.finalUrl).toBe(`${origin}/ok?from=relative`);
    expect(page.body.toString()).toBe('<h1>product</h1>');
  });

  it('follows five redirects and refuses the sixth', async () => {
    const page = await fetcherFor()(`${origin}/chain/5`);
    expect(page).toMatchObject({ finalUrl: `${origin}/chain/0`, status: 200 });
    expect(await refusal(fetcherFor()(`${origin}/chain/6`))).toMatchObject({
      reason: 'tooManyRedirects',
      message: 'More than 5 redirects',
    });
    expect((await refusal(fetcherFor({ maxRedirects: 1 })(`${origin}/chain/2`))).reason).toBe('tooManyRedirects');
  });

  it('fails on an answer that is not 2xx, and on a redirect without a Location', async () => {
    expect(await refusal(fetcherFor()(`${origin}/status/404`))).toMatchObject({
      reason: 'http',
      status: 404,
      message: expect.stringContaining('HTTP 404'),
    });
    expect(await refusal(fetcherFor()(`${origin}/no-location`))).toMatchObject({ reason: 'http', status: 302 });
  });

  it('fails when the connection is refused', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const error = await refusal(fetcherFor({ allowHosts: [`127.0.0.1:${closedPort}`] })(`http://127.0.0.1:${closedPort}/`));
    expect(error).toMatchObject({ reason: 'network', message: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('outbound fetcher: DNS rebinding', () => {
  /**
   * A fetcher allowed to reach rebind.test on the test server's port, whose DNS answers 127.0.0.1 the
   * first time and `later` from then on; `lookups` records every question.
   */
  function rebinding(later: string) {
    const lookups: string[] = [];
    const lookup: Lookup = async (hostname) => {
      lookups.push(hostname);
      return [{ address: lookups.length === 1 ? '127.0.0.1' : later, family: 4 }];
    };
    return { lookups, fetchUrl: createFetcher({ allowHosts: [`rebind.test:${port}`], lookup, headersTimeoutMs: 300 }) };
  }

  it('connects to the address it checked, resolving each hop exactly once', async () => {
    // A connection that resolved the name again would be sent to 192.0.2.1 and fail.
    const { lookups, fetchUrl } = rebinding('192.0.2.1');
    const page = await fetchUrl(`http://rebind.test:${port}/headers`);
    expect(JSON.parse(page.body.toString()).host).toBe(`rebind.test:${port}`);
    expect(lookups).toEqual(['rebind.test']);
  });

  it('checks the address of every hop anew', async () => {
    // The allow-list covers the first hop only: the redirect to the same name on another port is checked.
    const { lookups, fetchUrl } = rebinding('10.0.0.1');
    const error = await refusal(fetchUrl(`http://rebind.test:${port}/redirect?to=${encodeURIComponent('http://rebind.test:81/')}`));
    expect(error.message).toContain('rebind.test resolves to 10.0.0.1');
    expect(lookups).toEqual(['rebind.test', 'rebind.test']);
  });
});

describe('outbound fetcher: limits and headers', () => {
  it('refuses a streamed body over the cap and takes one at the cap', async () => {
    expect(await refusal(fetcherFor()(`${origin}/stream/${LIMIT + 1}`))).toMatchObject({
      reason: 'tooLarge',
      message: expect.stringContaining(`${LIMIT} bytes`),
    });
    expect((await fetcherFor()(`${origin}/stream/${LIMIT}`)).body.length).toBe(LIMIT);
    expect((await refusal(fetcherFor()(`${origin}/stream/${LIMIT}`, { maxBytes: 1000 }))).reason).toBe('tooLarge');
  });

  it('refuses a declared Content-Length over the cap without waiting for the body', async () => {
    const started = Date.now();
    expect((await refusal(fetcherFor()(`${origin}/declared`))).reason).toBe('tooLarge');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('decodes gzip and counts the decoded bytes against the cap', async () => {
    expect((await fetcherFor()(`${origin}/gzip/ab`)).body.toString()).toBe('ab'.repeat(1000));
    expect((await refusal(fetcherFor()(`${origin}/bomb`))).reason).toBe('tooLarge');
    expect(await refusal(fetcherFor()(`${origin}/odd-encoding`))).toMatchObject({
      reason: 'network',
      message: expect.stringContaining('compress'),
    });
  });

  it('gives up on a server that never answers within the headers timeout', async () => {
    const started = Date.now();
    const error = await refusal(fetcherFor()(`${origin}/hang`));
    expect(error).toMatchObject({ reason: 'timeout', message: `127.0.0.1:${port} did not answer within 300 ms` });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives up on a body that never ends within the total timeout', async () => {
    const started = Date.now();
    const error = await refusal(fetcherFor({ timeoutMs: 400 })(`${origin}/trickle`));
    expect(error).toMatchObject({ reason: 'timeout', message: `Fetching ${origin}/trickle took longer than 400 ms` });
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('presents itself as a desktop browser', async () => {
    const headers = JSON.parse((await fetcherFor()(`${origin}/headers`)).body.toString());
    expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .* Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/);
    expect(headers.accept).toMatch(/^text\/html,/);
    expect(headers['accept-language']).toBe('en-US,en;q=0.9');
    expect(headers['accept-encoding']).toBe('gzip, br');
    const image = JSON.parse((await fetcherFor()(`${origin}/headers`, { accept: 'image/*' })).body.toString());
    expect(image.accept).toBe('image/*');
  });
});
