// A browser of the web app over real HTTP, for tests of server processes: sends `client: WEB` and the server's own
// Origin, keeps its cookies, and unwraps the envelope.
export class HttpClient {
  private cookie = '';

  constructor(readonly base: string) {}

  async call(
    method: 'GET' | 'POST',
    path: string,
    options: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ) {
    const url = new URL(`${this.base}/reelsmith/api${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: {
        client: 'WEB',
        origin: this.base,
        ...(this.cookie && { cookie: this.cookie }),
        ...(options.body !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.signal && { signal: options.signal }),
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith('reelsmith_session='));
    if (session) this.cookie = session.split(';')[0] as string;
    return { status: res.status, headers: res.headers, body: (await res.json()) as { code: number; message: string; data: unknown } };
  }

  async ok<T>(method: 'GET' | 'POST', path: string, options: Parameters<HttpClient['call']>[2] = {}): Promise<T> {
    const { body } = await this.call(method, path, options);
    if (body.code !== 0) throw new Error(`${method} ${path} answered ${body.code}: ${body.message}`);
    return body.data as T;
  }

  /** The same signed-in browser talking to another process of the same service. */
  on(base: string): HttpClient {
    const other = new HttpClient(base);
    other.cookie = this.cookie;
    return other;
  }
}

/** The sum of a metric's samples in Prometheus text whose labels include all of `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (match[2] ?? '').includes(`${k}="${v}"`));
    if (has) sum += Number(match[3]);
  }
  return sum;
}
