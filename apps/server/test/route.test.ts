import { defineCall, type User } from '@reelsmith/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handleError } from '../src/http/errors.js';
import { localeOf } from '../src/http/locale.js';
import { createRouter } from '../src/http/route.js';

const user = (status: User['status']): User => ({ userId: 'u1', username: 'ann', email: 'ann@example.com', avatarUrl: null, status });

const echo = defineCall({
  method: 'POST',
  path: '/echo',
  access: 'active',
  query: z.strictObject({ n: z.coerce.number().int().max(9) }),
  body: z.strictObject({ fileName: z.string().max(5) }),
  data: z.object({ n: z.number(), fileName: z.string(), userId: z.string() }),
});

/** A router on its own, with a stand-in for the session look-up, to test access levels and validation. */
async function appWith(signedIn: User | null) {
  const app = Fastify();
  app.setErrorHandler(handleError);
  app.decorateRequest('user', null);
  const route = createRouter(app, {
    currentUser: async () => signedIn,
    keyAccess: async () => {
      throw new Error('this test makes no public API calls');
    },
  });
  route(echo, ({ query, body, user }) => ({ n: query.n, fileName: body.fileName, userId: user.userId }));
  await app.ready();
  return app;
}

const post = (app: Awaited<ReturnType<typeof appWith>>, payload: object, query = 'n=3', locale = 'en') =>
  app.inject({ method: 'POST', url: `/echo?${query}`, payload, headers: { 'accept-language': locale } });

describe('route helper', () => {
  it('hands the handler validated input and the user, and wraps data in the envelope', async () => {
    const res = await post(await appWith(user('ACTIVE')), { fileName: 'a.png' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, message: 'ok', data: { n: 3, fileName: 'a.png', userId: 'u1' } });
  });

  it('answers 401 unauthenticated without a user and 403 notActive for an INACTIVE one', async () => {
    const signedOut = await post(await appWith(null), { fileName: 'a' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toMatchObject({ code: 401, message: 'Please sign in first.', data: null });
    const inactive = await post(await appWith(user('INACTIVE')), { fileName: 'a' });
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toMatchObject({ code: 403, message: 'Please activate your account with an invitation code first.' });
  });

  it('names the field that failed, in body and query, and rejects unknown fields', async () => {
    const app = await appWith(user('ACTIVE'));
    const tooLong = (await post(app, { fileName: 'abcdefgh' })).json();
    expect(tooLong.code).toBe(40000);
    expect(tooLong.message).toMatch(/^Invalid request: fileName: Too big/);
    expect((await post(app, { fileName: 'a' }, 'n=12')).json().message).toMatch(/^Invalid request: n: Too big/);
    const unknown = (await post(app, { fileName: 'a', extra: 1 })).json();
    expect(unknown.code).toBe(40000);
    expect(unknown.message).toContain('"extra"');
    expect((await post(app, { fileName: 'a' }, 'n=1&debug=1')).json().message).toContain('"debug"');
  });

  it('translates the validation message, field details included', async () => {
    const app = await appWith(user('ACTIVE'));
    const zh = (await post(app, { fileName: 'abcdefgh' }, 'n=3', 'zh-CN')).json().message;
    const pt = (await post(app, { fileName: 'abcdefgh' }, 'n=3', 'pt-BR,pt;q=0.9')).json().message;
    expect(zh).toMatch(/^请求无效：fileName: 数值过大/);
    expect(pt).toMatch(/^Solicitação inválida: fileName: Demasiado grande/);
  });
});

describe('Accept-Language', () => {
  it('picks the best supported locale by quality and falls back to English', () => {
    expect(localeOf(undefined)).toBe('en');
    expect(localeOf('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(localeOf('fr-FR,pt;q=0.5,zh;q=0.4')).toBe('pt');
    expect(localeOf('en;q=0.2, zh-TW;q=0.7')).toBe('zh');
    expect(localeOf('fr, de')).toBe('en');
    expect(localeOf('pt;q=0, en')).toBe('en');
  });
});
