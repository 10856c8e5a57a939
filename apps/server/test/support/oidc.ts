// A real OpenID Connect provider on a local port (oauth2-mock-server) for the tests of Google sign-in, and the
// browser's part of a sign-in through it: our redirect to the provider, its redirect back, our redirect to the app.
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { API, type Browser } from './app.js';

/** What the provider says about the person in the ID token it signs. */
export interface Claims {
  sub: string;
  email: string;
  /** Left out: the token says nothing about it. */
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export const SESSION_COOKIE = 'reelsmith_session';
export const SIGNED_IN = '/account/login-callback?status=success';
/** Where a refused sign-in sends the browser, with the error table's key of the reason when there is one. */
export const refusedBecause = (reason?: string) => `/account/login-callback?status=error${reason ? `&reason=${reason}` : ''}`;

/** A provider started before the calling describe block's tests and stopped after them. */
export function oidcProvider() {
  const server = new OAuth2Server();
  let next: Claims | undefined;
  beforeAll(async () => {
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    server.issuer.url = `http://127.0.0.1:${server.address().port}`;
    server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      if (!next) throw new Error('no claims set for this sign-in');
      Object.assign(token.payload, next);
    });
  });
  afterAll(() => server.stop());

  const provider = {
    get issuer(): string {
      return server.issuer.url as string;
    },
    /** The settings of an app that signs in with this provider. */
    env: (): Record<string, string> => ({
      GOOGLE_CLIENT_ID: 'reelsmith-test',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_ISSUER: provider.issuer,
    }),
    /**
     * Signs `browser` in to `app` as the person the claims describe; a session cookie the app sets is kept in the
     * browser. Answers where the app sends the browser at the end.
     */
    async signIn(app: FastifyInstance, browser: Browser, claims: Claims): Promise<string> {
      next = claims;
      const start = await app.inject({ method: 'GET', url: `${API}/auth/google` });
      expect(start.statusCode).toBe(302);
      const pending = start.cookies.find((c) => c.name === 'reelsmith_google');
      const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
      expect(atProvider.status).toBe(302);
      const callback = new URL(String(atProvider.headers.get('location')));
      const back = await app.inject({
        method: 'GET',
        url: `${callback.pathname}${callback.search}`,
        cookies: { reelsmith_google: pending?.value ?? '' },
      });
      expect(back.statusCode).toBe(302);
      const session = back.cookies.find((c) => c.name === SESSION_COOKIE && c.value);
      if (session) browser.cookies.set(session.name, session.value);
      return String(back.headers.location);
    },
  };
  return provider;
}
