// A cookie-keeping client that speaks the envelope, for setting up state the browser tests then see.
import { PREFIX } from './product.js';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export class ApiClient {
  private readonly cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly locale = 'en',
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call<T = unknown>(
    method: string,
    path: string,
    opts: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<Envelope<T>> {
    const url = new URL(`${this.base}/${PREFIX}/api${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        client: 'WEB',
        'accept-language': this.locale,
        origin: this.base,
        cookie: this.cookieHeader(),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    return (await res.json()) as Envelope<T>;
  }

  async ok<T = unknown>(method: string, path: string, opts: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
    const env = await this.call<T>(method, path, opts);
    if (env.code !== 0) throw new Error(`${method} ${path}: ${env.code} ${env.message}`);
    return env.data;
  }
}
