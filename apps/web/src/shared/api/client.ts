import {
  type Call,
  type CallBody,
  type CallData,
  type CallQuery,
  type CallRoute,
  CLIENT_HEADER,
  CLIENT_WEB,
  type Envelope,
  OK_CODE,
  REQUEST_TIMEOUT_MS,
  SHELL_ROUTES,
} from '@reelsmith/contract';
import { i18n } from '../i18n/i18n';
import { logClient } from '../logs/clientLog';
import { apiBase } from '../prefix';
import { toast } from '../ui/toast';

/** Why a call failed: the rows of spec "Error catalogue"'s error table that concern requests. */
export type ApiErrorKind = 'envelope' | 'http' | 'timeout' | 'network' | 'cancelled' | 'invalid';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    /** The envelope code, or the HTTP status when the answer carried no envelope. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions<C extends Call> {
  query?: CallQuery<C>;
  body?: CallBody<C>;
  signal?: AbortSignal;
  /** Reject without a toast: for calls whose failure is an expected state (e.g. a call that may find the session gone). */
  silent?: boolean;
}

/**
 * The one way the app talks to the service: sends the contract call with credentials, `client: WEB` and the
 * chosen language, unwraps the envelope, and turns every failure into an ApiError, shown as a toast unless
 * the call is silent or was cancelled.
 */
export async function api<C extends Call>(call: C, options: ApiOptions<C> = {}): Promise<CallData<C>> {
  try {
    return (await send(call, options)) as CallData<C>;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (!options.silent && error.kind !== 'cancelled') {
      toast.error(error.message);
      // A failure the user was shown is worth the operator's log too (decision "Client logs"); the log's own are not.
      if (call.path !== SHELL_ROUTES.logCollect.path)
        logClient({ kind: 'callFailed', message: error.kind, call: call.path, code: error.code });
    }
    throw error;
  }
}

/**
 * `api` with a call's route alone (`apiRoute<typeof authSession>(SHELL_ROUTES.authSession)`): its inputs are sent as
 * given, not parsed. The shell's calls go so, and a first visit does not download zod and the schemas for them
 * (decision "First-load bundle split").
 */
export const apiRoute = <C extends Call>(route: CallRoute<C>, options: ApiOptions<C> = {}): Promise<CallData<C>> =>
  api(route as C, options);

/** Parsing the inputs applies the schema's trimming and defaults, and stops a malformed call before it leaves. */
function parseInput(schema: Call['query'], value: unknown): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => issue.path.join('.') || issue.message).join(', ');
  throw new ApiError('invalid', i18n.t('errors:validation', { detail }));
}

function urlOf(call: CallRoute, query: unknown): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return `${apiBase()}${call.path}${search ? `?${search}` : ''}`;
}

async function send(call: Call | CallRoute, options: ApiOptions<Call>): Promise<unknown> {
  const query = 'query' in call ? parseInput(call.query, options.query) : options.query;
  const body = 'body' in call ? parseInput(call.body, options.body) : options.body;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const cancel = () => controller.abort();
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener('abort', cancel);

  try {
    const response = await fetch(urlOf(call, query), {
      method: call.method,
      credentials: 'include',
      signal: controller.signal,
      headers: {
        [CLIENT_HEADER]: CLIENT_WEB,
        'Accept-Language': i18n.language,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return unwrap(response, await readJson(response, controller.signal));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (timedOut) throw new ApiError('timeout', i18n.t('shared:messages.requestTimeout'));
    if (options.signal?.aborted) throw new ApiError('cancelled', '');
    throw new ApiError('network', i18n.t('shared:messages.unknownError'));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

/** The answer's JSON, or undefined when it is not JSON (an HTML error page, an empty body). */
async function readJson(response: Response, signal: AbortSignal): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    // A body cut off by the timeout or a cancel is not a malformed body.
    if (signal.aborted) throw error;
    return undefined;
  }
}

/** The envelope's data on success; otherwise the failure, with the answer's own message when it has one. */
function unwrap(response: Response, answer: unknown): unknown {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Partial<Envelope<unknown>>;
  const isEnvelope = typeof body.code === 'number';
  if (response.ok && isEnvelope && body.code === OK_CODE) return body.data;
  const message = typeof body.message === 'string' && body.message ? body.message : i18n.t('shared:messages.unknownError');
  const kind = isEnvelope && body.code !== OK_CODE ? 'envelope' : 'http';
  throw new ApiError(kind, message, isEnvelope ? body.code : response.status);
}
