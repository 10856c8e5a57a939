// The log collection endpoint (decision "Client logs"): what it takes, what it refuses, and what it scrubs.
import { describe, expect, it } from 'vitest';
import { scrub } from '../src/modules/logs/scrub.js';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';

const entry = (message = 'envelope') => ({
  kind: 'callFailed',
  message,
  route: '/tools/link-to-video/preview',
  call: '/task/v1/link-video/submit',
  code: 40060,
  at: '2026-11-25T10:00:00.000Z',
});

describe('client log scrubbing', () => {
  it('takes e-mail addresses and the queries and fragments of links out of what is logged', () => {
    expect(scrub('Sign-in failed for ada.lovelace+shop@example.co.uk today')).toBe('Sign-in failed for [email] today');
    expect(scrub('Could not load https://shop.example/p/1?session=abc&coupon=X#top, retrying')).toBe(
      'Could not load https://shop.example/p/1, retrying',
    );
    expect(scrub('plain text stays')).toBe('plain text stays');
  });
});

describe.each(testDatabases())('the log collection endpoint on $name', (testDb) => {
  const t = appOn(testDb);

  it('takes a batch from anyone, signed in or not', async () => {
    expect(await new Browser(t.app).ok('POST', '/log/collect', { body: { entries: [entry(), entry('timeout')] } })).toBe(true);
    const member = new Browser(t.app);
    await member.devLogin('logger@example.com');
    expect(await member.ok('POST', '/log/collect', { body: { entries: [entry()] } })).toBe(true);
  });

  it('refuses an empty or oversized batch, a long message and fields it does not know', async () => {
    const browser = new Browser(t.app);
    const refused = [
      { entries: [] },
      { entries: Array.from({ length: 21 }, () => entry()) },
      { entries: [entry('x'.repeat(501))] },
      { entries: [{ ...entry(), email: 'ada@example.com' }] },
      { entries: [{ ...entry(), kind: 'debug' }] },
    ];
    for (const body of refused) expect((await browser.call('POST', '/log/collect', { body })).body.code).toBe(40000);
  });

  it('answers 429 past 30 batches a minute from one address', async () => {
    const browser = new Browser(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) codes.push((await browser.call('POST', '/log/collect', { body: { entries: [entry()] } })).status);
    expect(codes.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(codes.slice(0, 20).every((status) => status === 200)).toBe(true);
  });
});
