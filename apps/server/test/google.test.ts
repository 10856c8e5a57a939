import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, appOn, Browser, PUBLIC_URL, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';

interface Claims {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
}

describe.each(testDatabases())('Google sign-in against a local OpenID provider on $name', (testDb) => {
  const provider = new OAuth2Server();
  let claims: Claims;

  beforeAll(async () => {
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.issuer.url = `http://127.0.0.1:${provider.address().port}`;
    // The provider puts the person's claims into the tokens it signs.
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, claims);
    });
  });
  afterAll(() => provider.stop());
  const t = appOn(testDb, () => ({
    GOOGLE_CLIENT_ID: 'reelsmith-test',
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_ISSUER: provider.issuer.url as string,
  }));
  beforeEach(() => {
    claims = {
      sub: 'google-1001',
      email: 'Lena@Example.com',
      email_verified: true,
      name: 'Lena Park',
      picture: 'https://lh3.example/lena.png',
    };
  });

  /** The browser's part: our redirect to the provider, the provider's redirect back, our redirect to the app. */
  async function signIn(browser: Browser, tamper: (callback: URL) => void = () => {}) {
    const start = await t.app.inject({ method: 'GET', url: `${API}/auth/google` });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.origin).toBe(provider.issuer.url);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}${API}/auth/google/callback`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) expect(authorize.searchParams.get(p)).toBeTruthy();
    const pending = start.cookies.find((c) => c.name === 'reelsmith_google');
    expect(pending).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `${API}/auth/google` });

    const atProvider = await fetch(authorize, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const callback = new URL(String(atProvider.headers.get('location')));
    expect(callback.pathname).toBe(`${API}/auth/google/callback`);
    tamper(callback);

    const back = await t.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      cookies: { reelsmith_google: pending?.value ?? '' },
    });
    expect(back.statusCode).toBe(302);
    const session = back.cookies.find((c) => c.name === 'reelsmith_session' && c.value);
    if (session) browser.cookies.set(session.name, session.value);
    return String(back.headers.location);
  }

  it('offers Google and not dev sign-in when Google is configured', async () => {
    expect(await new Browser(t.app).ok('GET', '/auth/config')).toEqual({ google: true, devLogin: false });
    expect((await new Browser(t.app).call('POST', '/auth/dev-login', { body: { email: 'dev@example.com' } })).status).toBe(404);
  });

  it('signs a new person in as an INACTIVE user with their Google name and picture', async () => {
    const browser = new Browser(t.app);
    expect(await signIn(browser)).toBe('/account/login-callback?status=success');
    const me = await browser.ok('GET', '/users/me');
    expect(me).toEqual({
      userId: expect.any(String),
      username: 'Lena Park',
      email: 'lena@example.com',
      avatarUrl: 'https://lh3.example/lena.png',
      status: 'INACTIVE',
    });
  });

  it('signs the same Google account into the same user and refreshes the picture', async () => {
    const first = new Browser(t.app);
    await signIn(first);
    const before = (await first.ok('GET', '/users/me')) as { userId: string };
    claims.picture = 'https://lh3.example/lena-new.png';
    const second = new Browser(t.app);
    expect(await signIn(second)).toBe('/account/login-callback?status=success');
    expect(await second.ok('GET', '/users/me')).toMatchObject({ userId: before.userId, avatarUrl: 'https://lh3.example/lena-new.png' });
  });

  it('refuses an unverified e-mail that belongs to another user', async () => {
    claims = { sub: 'google-3003', email: 'lena@example.com', email_verified: false };
    const browser = new Browser(t.app);
    // Who may link to whom is identity.test.ts; here, that the callback names the reason.
    expect(await signIn(browser)).toBe('/account/login-callback?status=error&reason=emailNotVerified');
    expect(browser.cookies.has('reelsmith_session')).toBe(false);
  });

  it('sends the browser back with status=error when the state does not match', async () => {
    const browser = new Browser(t.app);
    expect(await signIn(browser, (callback) => callback.searchParams.set('state', 'forged'))).toBe('/account/login-callback?status=error');
    expect(browser.cookies.has('reelsmith_session')).toBe(false);
  });

  it('sends the browser back with status=error when the provider reports an error', async () => {
    const back = await t.app.inject({ method: 'GET', url: `${API}/auth/google/callback?error=access_denied&state=x` });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/account/login-callback?status=error');
  });

  it('sends the browser back with status=error when the sign-in did not start in this browser', async () => {
    const back = await t.app.inject({ method: 'GET', url: `${API}/auth/google/callback?code=abc&state=xyz` });
    expect(back.headers.location).toBe('/account/login-callback?status=error');
    const forged = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/google/callback?code=abc&state=xyz`,
      cookies: { reelsmith_google: JSON.stringify({ state: 'xyz', nonce: 'n', verifier: 'v' }) },
    });
    expect(forged.headers.location).toBe('/account/login-callback?status=error');
  });

  it('sends the browser back with status=error when the provider cannot be reached', async () => {
    const unreachable = await testApp(t.database.db, {
      GOOGLE_CLIENT_ID: 'reelsmith-test',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_ISSUER: 'http://127.0.0.1:9',
    });
    const start = await unreachable.app.inject({ method: 'GET', url: `${API}/auth/google` });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/account/login-callback?status=error');
    await unreachable.app.close();
  });
});
