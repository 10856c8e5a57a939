import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS } from '@reelsmith/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../src/http/envelope.js';
import { handleError } from '../src/http/errors.js';
import { clientChecks, hostCheck } from '../src/http/security.js';
import { API, appOn, Browser, PUBLIC_URL, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';

describe.each(testDatabases())('HTTP layer on $name', (testDb) => {
  const t = appOn(testDb);

  describe('health', () => {
    it('checks the database and storage and needs no client header', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${API}/health` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: 0,
        message: 'ok',
        data: {
          db: 'ok',
          queue: 'ok',
          storage: 'ok',
          engine: {
            node: process.version,
            ffmpeg: expect.stringContaining('ffmpeg'),
            ffprobe: expect.stringContaining('ffprobe'),
            waitingTasks: 0,
            // Every part the tasks run on is here (decision "Start-up checks"), named without detail: the endpoint is public.
            parts: { ffmpeg: 'ok', fonts: 'ok', music: 'ok', speech: 'ok', cutout: 'ok' },
            // Outside production the sandbox stands in where no local model can do the job; the local engine does the rest.
            providers: {
              textToImage: 'sandbox',
              imageToImage: 'sandbox',
              textToVideo: 'sandbox',
              imageToVideo: 'local',
              virtualTryOn: 'sandbox',
              removeBackground: 'local',
              replaceBackground: 'local',
              extendImage: 'local',
              upscale: 'local',
              talkingAvatar: 'sandbox',
              productHolding: 'sandbox',
            },
          },
        },
      });
    });

    it('answers a non-zero code when a check fails', async () => {
      const broken = await testApp(t.database.db);
      // A plain file where the files directory should be: storage cannot be created.
      writeFileSync(join(broken.ctx.settings.dataDir, 'files'), 'not a directory');
      const res = await broken.app.inject({ method: 'GET', url: `${API}/health` });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 500, message: ERRORS.internal.en, data: null });
      await broken.app.close();
    });
  });

  describe('envelope on every kind of error', () => {
    it('unknown API paths answer a 404 envelope, whatever the method and headers', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: `${API}/no/such/call` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 404, message: 'Not found.', data: null });
      }
    });

    it('signed out, /users/me answers 401 with a message', async () => {
      const res = await new Browser(t.app).call('GET', '/users/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, message: 'Please sign in first.', data: null });
    });

    it('a call without `client: WEB` is refused', async () => {
      for (const client of [undefined, 'APP']) {
        const res = await new Browser(t.app).call('GET', '/auth/config', { headers: { client } });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ code: ERRORS.clientHeader.code, message: ERRORS.clientHeader.en, data: null });
      }
    });

    it('state-changing calls need our Origin, or a Referer from it', async () => {
      const login = (headers: Record<string, string | undefined>) =>
        new Browser(t.app).call('POST', '/auth/dev-login', { body: { email: 'origin@example.com' }, headers });
      const refused = [{ origin: undefined }, { origin: 'https://evil.example' }, { origin: 'null' }];
      for (const headers of refused) {
        const res = await login(headers);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 403, message: ERRORS.forbiddenOrigin.en });
      }
      expect((await login({ origin: undefined, referer: `${PUBLIC_URL}/account/login` })).body.code).toBe(0);
      expect((await login({ origin: undefined, referer: 'https://evil.example/' })).body.code).toBe(403);
      // Outside production the same port under another loopback name is ours (a developer opening localhost).
      expect((await login({ origin: 'http://localhost:3000', host: 'localhost:3000' })).body.code).toBe(0);
      expect((await login({ origin: 'http://localhost:4000', host: 'localhost:3000' })).body.code).toBe(403);
      // Reading needs no Origin.
      expect((await new Browser(t.app).call('GET', '/auth/config', { headers: { origin: undefined } })).body.code).toBe(0);
    });

    it('a page that re-binds its own name to our address is refused, whatever Origin it sends (DNS rebinding)', async () => {
      const rebound = { origin: 'http://rebind.example:3000', host: 'rebind.example:3000' };
      const signIn = await new Browser(t.app).call('POST', '/auth/dev-login', { body: { email: 'rebind@example.com' }, headers: rebound });
      expect(signIn.status).toBe(403);
      expect(signIn.body).toMatchObject({ code: 403, message: ERRORS.forbiddenHost.en, data: null });
      // Reading is refused too (the page could read what a signed-in user sees), and so is the web app.
      for (const url of [`${API}/auth/config`, '/', '/account/login']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { host: rebound.host, client: 'WEB' } });
        expect(res.statusCode, url).toBe(403);
      }
      for (const host of ['evil@127.0.0.1:3000', '127.0.0.1.rebind.example', 'localhost:3000/x', 'localhost:3000:3000']) {
        expect((await t.app.inject({ method: 'GET', url: `${API}/auth/config`, headers: { host, client: 'WEB' } })).statusCode, host).toBe(
          403,
        );
      }
      // Probes and scrapers that call a pod by its own address still get the health check and the metrics.
      expect((await t.app.inject({ method: 'GET', url: `${API}/health`, headers: { host: '10.1.2.3:3000' } })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { host: '10.1.2.3:3000' } })).statusCode).toBe(200);
    });

    it('in production only the public host and origin count, and an https address takes no http Origin', async () => {
      const settings = { ...t.ctx.settings, publicUrl: 'https://studio.example', production: true };
      const app = Fastify();
      app.setErrorHandler(handleError);
      app.addHook('onRequest', hostCheck(settings, []));
      app.addHook('onRequest', clientChecks(settings));
      app.post('/call', async () => ok(true));
      const call = (host: string, origin: string) =>
        app.inject({ method: 'POST', url: '/call', headers: { host, origin, client: 'WEB' } }).then((res) => res.json().code);
      expect(await call('studio.example', 'https://studio.example')).toBe(0);
      expect(await call('studio.example', 'http://studio.example')).toBe(403);
      expect(await call('studio.example', 'https://studio.example:8443')).toBe(403);
      expect(await call('localhost:3000', 'https://studio.example')).toBe(403);
      expect(await call('127.0.0.1', 'https://studio.example')).toBe(403);
      expect(await call('studio.example', 'http://localhost')).toBe(403);
      await app.close();
    });

    it('unknown fields, bad values, bad JSON, wrong content types and large bodies are validation errors', async () => {
      const browser = new Browser(t.app);
      const unknown = await browser.call('POST', '/auth/dev-login', { body: { email: 'x@example.com', admin: true } });
      expect(unknown.status).toBe(200);
      expect(unknown.body.code).toBe(40000);
      expect(unknown.body.message).toContain('"admin"');
      const badEmail = await browser.call('POST', '/auth/dev-login', { body: { email: 'not-an-email' } });
      expect(badEmail.body.message).toMatch(/^Invalid request: email: /);
      const query = await browser.call('GET', '/users/me', { query: { debug: '1' } });
      expect(query.body.code).toBe(401);
      const extraQuery = await browser.call('GET', '/auth/config', { query: { debug: '1' } });
      expect(extraQuery.body.message).toContain('"debug"');

      const raw = (payload: string, contentType: string) =>
        t.app.inject({
          method: 'POST',
          url: `${API}/auth/dev-login`,
          payload,
          headers: { client: 'WEB', origin: PUBLIC_URL, 'content-type': contentType },
        });
      expect((await raw('{"email":', 'application/json')).json()).toMatchObject({
        code: 40000,
        message: 'Invalid request: body: not valid JSON',
      });
      expect((await raw('email=a', 'application/x-www-form-urlencoded')).json()).toMatchObject({ code: 40000 });
      const big = await raw(JSON.stringify({ email: 'a@example.com', username: 'x'.repeat(4 * 1024 * 1024) }), 'application/json');
      expect(big.json()).toMatchObject({ code: 40000, message: 'Invalid request: body: too large' });
    });

    it('a POST with a JSON content type and no body is a call without input', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/users/logout`,
        headers: { client: 'WEB', origin: PUBLIC_URL, 'content-type': 'application/json' },
      });
      expect(res.json()).toEqual({ code: 0, message: 'ok', data: true });
    });
  });

  describe('messages follow Accept-Language', () => {
    it('answers the same error in en, zh and pt', async () => {
      const messages = await Promise.all(
        ['en-US', 'zh-CN,zh;q=0.9', 'pt-BR', 'fr'].map(
          async (locale) => (await new Browser(t.app, locale).call('GET', '/users/me')).body.message,
        ),
      );
      expect(messages).toEqual([
        ERRORS.unauthenticated.en,
        ERRORS.unauthenticated.zh,
        ERRORS.unauthenticated.pt,
        ERRORS.unauthenticated.en,
      ]);
      expect(new Set(messages.slice(0, 3)).size).toBe(3);
    });
  });

  describe('security headers', () => {
    it('API answers carry the small API set: nosniff, nothing to load, no framing, same origin', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${API}/health` });
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      const unknown = await t.app.inject({ method: 'GET', url: `${API}/nothing` });
      expect(unknown.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    });

    it('pages carry a CSP fit for the single-page app and the usual hardening headers', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/tools/link-to-video' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      // Over plain http, a picture being imported shows from its http link too.
      expect(csp).toContain("img-src 'self' data: blob: https: http:");
      expect(csp).toContain("media-src 'self' blob: https: http:");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('behind https, asks browsers to stay on https and marks the session cookie Secure', async () => {
      const secure = await testApp(t.database.db, { PUBLIC_URL: 'https://studio.example' });
      const api = await secure.app.inject({ method: 'GET', url: `${API}/health` });
      const page = await secure.app.inject({ method: 'GET', url: '/' });
      for (const res of [api, page]) expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain('upgrade-insecure-requests');
      // Over https, pictures come over https only (http ones would be mixed content).
      expect(csp).toContain("img-src 'self' data: blob: https:;");
      expect(csp).not.toContain('http:');
      const login = await new Browser(secure.app).call('POST', '/auth/dev-login', {
        body: { email: 'secure@example.com' },
        headers: { origin: 'https://studio.example' },
      });
      expect(String(login.headers['set-cookie'])).toMatch(/; Secure/);
      await secure.app.close();
    });
  });

  describe('rate limits', () => {
    it('answers a 429 envelope once sign-in attempts from one address exceed the limit', async () => {
      const limited = await testApp(t.database.db, { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
      const browser = new Browser(limited.app, 'pt');
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await browser.call('POST', '/auth/dev-login', { body: { email: 'limit@example.com' } })).body.code);
      expect(codes).toEqual([0, 0, 0, 429]);
      const res = await browser.call('POST', '/auth/dev-login', { body: { email: 'limit@example.com' } });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ code: 429, message: ERRORS.rateLimited.pt, data: null });
      expect(res.headers['retry-after']).toBeDefined();
      await limited.app.close();
    });

    it('limits invitation code attempts per user', async () => {
      const limited = await testApp(t.database.db, { ACTIVATE_RATE_LIMIT: '2' });
      const first = new Browser(limited.app);
      const second = new Browser(limited.app);
      await first.devLogin('guesser@example.com');
      await second.devLogin('patient@example.com');
      const attempt = (b: Browser) => b.call('POST', '/users/activate', { query: { inviteCode: 'WRONG-CODE' } });
      expect((await attempt(first)).body.data).toBe(false);
      expect((await attempt(first)).body.data).toBe(false);
      expect((await attempt(first)).body.code).toBe(429);
      // Another user from the same address still has attempts left.
      expect((await attempt(second)).body).toMatchObject({ code: 0, data: false });
      await limited.app.close();
    });
  });

  describe('web app beside the API', () => {
    let web: FastifyInstance;

    beforeAll(async () => {
      const dist = join(t.ctx.settings.dataDir, 'dist');
      mkdirSync(join(dist, 'assets'), { recursive: true });
      writeFileSync(
        join(dist, 'index.html'),
        '<!doctype html><html><head><meta name="api-prefix" content="reelsmith"><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
      );
      writeFileSync(join(dist, 'assets/index-abc123.js'), 'console.log("app")');
      writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      ({ app: web } = await testApp(t.database.db, { WEB_DIST_DIR: dist, API_PREFIX: 'studio' }));
    });
    afterAll(() => web.close());

    it('serves index.html for app routes, with the configured API prefix and no caching', async () => {
      for (const url of ['/', '/tools/link-to-video', '/account/login-callback?status=success', '/index.html', '/no/such/page']) {
        const res = await web.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toContain('<meta name="api-prefix" content="studio">');
        expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      }
    });

    it('serves hashed assets as immutable and other files without caching', async () => {
      const asset = await web.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log("app")');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const icon = await web.inject({ method: 'GET', url: '/favicon.svg' });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['cache-control']).toBe('no-cache');
      expect((await web.inject({ method: 'GET', url: '/assets/gone-999.js' })).statusCode).toBe(404);
    });

    it('keeps API answers to the API under the configured prefix', async () => {
      const unknown = await web.inject({ method: 'GET', url: '/studio/api/nothing-here' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 404 });
      expect((await web.inject({ method: 'GET', url: '/studio/api/health' })).json()).toMatchObject({ code: 0 });
      expect((await web.inject({ method: 'POST', url: '/somewhere' })).json()).toMatchObject({ code: 404 });
    });

    it('says the web app is not built when there is no build', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/tools/link-to-video' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('npm run build');
    });
  });
});
