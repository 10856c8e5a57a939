// The attacks' common parts: sending a request as some browser, checking that its answer is a clear error, and
// checking that a group of attacks changed nothing; each step is counted in the figures of its category.
import { isDeepStrictEqual } from 'node:util';
import { ERRORS, type ErrorKey, type Locale } from '@reelsmith/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../../../src/context.js';
import { httpStatusOf } from '../../../src/http/envelope.js';
import type { Answer, Browser } from '../../support/app.js';
import { type ApiCall, labelOf } from './calls.js';
import type { Figures } from './figures.js';
import { expectUnchanged, snapshot } from './snapshot.js';

export type TestApp = { app: FastifyInstance; ctx: AppContext };

export interface Attack {
  /** The query: values (an array sends the parameter once per item), or a raw query string. */
  query?: Record<string, unknown> | string;
  /** Sent as JSON text. */
  body?: unknown;
  /** Sent as is, with this content type (none: no Content-Type header). */
  raw?: { payload: string | Buffer; contentType?: string };
  headers?: Record<string, string | undefined>;
  /** The address the request comes from. */
  remoteAddress?: string;
}

/** What an error message must never hold: a stack trace, SQL or a driver's words, a class of error, a file path. */
const INTERNALS: RegExp[] = [
  /\n\s*at\s/,
  /\bat\s\S+\s\(?\S+\.[cm]?[jt]s:\d+/,
  /node_modules|\/src\/|file:\/\//,
  /\b(select|insert|update|delete)\b[\s\S]*\b(from|into|set|where)\b/i,
  /syntax error|relation "|violates|duplicate key|SQLSTATE|drizzle|pglite|postgres/i,
  /\b[A-Z][a-zA-Z]+Error\b/,
  /FST_|ERR_/,
];

/** Messages are short sentences; one that holds a megabyte of input echoes it. */
const MESSAGE_MAX = 1000;

export interface Refusal {
  /** Envelope codes the answer may carry; any non-zero one when not given. */
  codes?: readonly number[];
  /** Text the message must contain (e.g. the field that failed). */
  mentions?: string;
  /** The caller's language: the message must be the error table's in it. */
  locale?: Locale;
  key?: ErrorKey;
  /** The HTTP status, where it is not the one the code calls for (the file server answers real statuses). */
  status?: number;
}

const queryString = (query: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  return params.toString();
};

export class Campaign {
  constructor(
    private readonly t: TestApp,
    readonly figures: Figures,
  ) {}

  /** Sends one attack on a call as `browser` (with its cookies, `client: WEB` and our Origin unless overridden). */
  async send(category: string, browser: Browser, api: ApiCall, attack: Attack = {}): Promise<Answer> {
    const figures = this.figures.of(category);
    figures.calls.add(labelOf(api));
    figures.requests++;
    const query = attack.query === undefined ? '' : typeof attack.query === 'string' ? attack.query : queryString(attack.query);
    const path = query ? `${api.call.path}?${query}` : api.call.path;
    const payload = attack.raw?.payload ?? (attack.body === undefined ? undefined : JSON.stringify(attack.body));
    const contentType = attack.raw ? attack.raw.contentType : attack.body === undefined ? undefined : 'application/json';
    const answer = await browser.call(api.call.method, path, {
      ...(payload !== undefined && { body: payload }),
      headers: { ...(contentType && { 'content-type': contentType }), ...attack.headers },
      ...(attack.remoteAddress && { remoteAddress: attack.remoteAddress }),
    });
    if (answer.status >= 500) figures.serverErrors++;
    return answer;
  }

  /**
   * Fails unless the answer is a clear error: not 5xx (the HTTP status is the one the envelope's code calls for),
   * an envelope with a non-zero code, a non-empty message without internals, and no data.
   */
  expectRefused(category: string, answer: Answer, what: string, refusal: Refusal = {}): void {
    const { body, status } = answer;
    expect(status, `${what}: HTTP status`).toBeLessThan(500);
    expect(body.code, `${what}: envelope code (${body.message})`).not.toBe(0);
    if (refusal.codes) expect(refusal.codes, `${what}: envelope code (${body.message})`).toContain(body.code);
    expect(status, `${what}: HTTP status of code ${body.code}`).toBe(refusal.status ?? httpStatusOf(body.code));
    expect(body.data, `${what}: data`).toBeNull();
    expect(typeof body.message === 'string' && body.message.trim().length > 0, `${what}: message`).toBe(true);
    expect(body.message.length, `${what}: message length`).toBeLessThanOrEqual(MESSAGE_MAX);
    for (const internal of INTERNALS) expect(body.message, `${what}: message shows internals`).not.toMatch(internal);
    if (refusal.mentions !== undefined) expect(body.message, `${what}: message names the cause`).toContain(refusal.mentions);
    if (refusal.locale && refusal.key) {
      const template = ERRORS[refusal.key][refusal.locale];
      expect(body.message.startsWith(template.split('{{')[0] as string), `${what}: message in ${refusal.locale}: ${body.message}`).toBe(
        true,
      );
    }
    this.figures.of(category).answered++;
  }

  /** Runs attacks between two snapshots and fails if anything changed. */
  async expectNoChange(category: string, what: string, attacks: () => Promise<void>): Promise<void> {
    const before = await snapshot(this.t.ctx);
    await attacks();
    const after = await snapshot(this.t.ctx);
    const figures = this.figures.of(category);
    figures.snapshots++;
    if (!isDeepStrictEqual(before, after)) figures.changes++;
    expectUnchanged(before, after, what);
  }
}

/** One attack of a list: what it is (for failures), the request, and the refusal it must get. */
export interface NamedAttack {
  what: string;
  request: Attack;
  refusal?: Refusal;
}

/** Sends every attack on a call as `browser`, each to be refused, all of them between two snapshots. */
export async function refuseAll(campaign: Campaign, category: string, browser: Browser, api: ApiCall, attacks: NamedAttack[]) {
  await campaign.expectNoChange(category, labelOf(api), async () => {
    for (const { what, request, refusal } of attacks) {
      const answer = await campaign.send(category, browser, api, request);
      campaign.expectRefused(category, answer, `${labelOf(api)}, ${what}`, refusal);
    }
  });
}
