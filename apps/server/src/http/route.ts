import { type Call, type CallData, type ErrorKey, hasControlCharacters, type Locale, type User } from '@reelsmith/contract';
import { isPublicCall, PUBLIC_API_BASE } from '@reelsmith/contract/public-api';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { Auth } from '../modules/auth/routes.js';
import { ok } from './envelope.js';
import { localeOf } from './locale.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Routes that are not calls of the web app: the health probe, browser navigations of Google sign-in and
     * the admin RPC. They skip the `client: WEB` and Origin checks.
     */
    skipClientChecks?: boolean;
    /** Calls the browser extension makes: its origin (EXTENSION_ORIGINS) is accepted beside ours. */
    fromExtension?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user of a `signedIn` or `active` call, set before the handler runs. */
    user: User | null;
  }
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<C extends Call> {
  query: Output<C['query']>;
  body: Output<C['body']>;
  user: C['access'] extends 'public' ? null : User;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteOptions {
  skipClientChecks?: boolean;
  fromExtension?: boolean;
  /** A larger body than the app's limit, for the few calls that carry a document. */
  bodyLimit?: number;
  /** At most `max` calls per `timeWindow` ms for each key (the client's IP unless `keyGenerator` says otherwise). */
  rateLimit?: { max: number; timeWindow: number; keyGenerator?: (req: FastifyRequest) => string };
}

export type Router = <C extends Call>(
  call: C,
  handler: (input: RouteInput<C>) => Promise<CallData<C>> | CallData<C>,
  options?: RouteOptions,
) => void;

/** A call without a query or body accepts none: unknown fields are rejected everywhere. */
const NOTHING = z.strictObject({});

const ZOD_LOCALES: Record<Locale, ReturnType<typeof z.locales.en>> = {
  en: z.locales.en(),
  zh: z.locales.zhCN(),
  pt: z.locales.pt(),
};

/** Required texts left empty that the error table has a message of their own for (spec "Validation rules": prompts cannot be empty). */
const EMPTY_FIELD_ERRORS: Record<string, ErrorKey> = { prompt: 'emptyPrompt' };

function emptyFieldError(issues: z.core.$ZodIssue[]): ErrorKey | undefined {
  for (const issue of issues) {
    const key = EMPTY_FIELD_ERRORS[String(issue.path.at(-1))];
    if (key && issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) return key;
  }
  return undefined;
}

const CONTROL_MESSAGE: Record<Locale, string> = {
  en: 'must not contain control characters (such as NUL)',
  zh: '不能包含控制字符（如 NUL）',
  pt: 'não pode conter caracteres de controle (como NUL)',
};

/** The path of the first text holding a control character, anywhere in a parsed input; none when clean. */
function controlCharacterAt(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return hasControlCharacters(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = controlCharacterAt(item, [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = controlCharacterAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Validates one input of a request; the error names each field and speaks the request's language. A text with a
 * control character is refused as its field's error, for every call alike (decision "Control characters refused").
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, req: FastifyRequest): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    const control = controlCharacterAt(parsed.data);
    if (!control) return parsed.data;
    const message = CONTROL_MESSAGE[localeOf(req.headers['accept-language'])];
    throw new AppError('validation', { detail: control.length ? `${control.join('.')}: ${message}` : message });
  }
  const empty = emptyFieldError(parsed.error.issues);
  if (empty) throw new AppError(empty);
  // Parsed again only on failure, so the common path pays nothing for the translated messages.
  const locale = localeOf(req.headers['accept-language']);
  const issues = schema.safeParse(value, { error: ZOD_LOCALES[locale].localeError }).error?.issues ?? parsed.error.issues;
  const detail = issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
  throw new AppError('validation', { detail });
}

/**
 * Binds contract calls to handlers: checks the caller's access level, validates query and body with the
 * call's schemas, and wraps what the handler returns in the success envelope. A call of the public API
 * (contract PUBLIC_CALLS) is bound a second time under PUBLIC_API_BASE, where an API key stands in for the
 * session and the web app's client checks do not apply (decision "Public API").
 */
export function createRouter(app: FastifyInstance, auth: Pick<Auth, 'currentUser' | 'keyAccess'>): Router {
  return (call, handler, options = {}) => {
    const querySchema = call.query ?? NOTHING;
    const bodySchema = call.body ?? NOTHING;
    const access = call.access;
    const sessionAccess: preValidationAsyncHookHandler | undefined =
      access === 'public'
        ? undefined
        : async (req) => {
            const user = await auth.currentUser(req);
            if (!user) throw new AppError('unauthenticated');
            if (access === 'active' && user.status !== 'ACTIVE') throw new AppError('notActive');
            req.user = user;
          };
    const routeHandler = async (req: FastifyRequest, reply: FastifyReply) => {
      const input = {
        query: parseInput(querySchema, req.query, req),
        body: parseInput(bodySchema, req.body ?? {}, req),
        user: req.user,
        req,
        reply,
      } as Parameters<typeof handler>[0];
      return ok(await handler(input));
    };
    app.route({
      method: call.method,
      url: call.path,
      ...(options.bodyLimit && { bodyLimit: options.bodyLimit }),
      config: {
        skipClientChecks: options.skipClientChecks,
        fromExtension: options.fromExtension,
        ...(options.rateLimit && { rateLimit: options.rateLimit }),
      },
      preValidation: sessionAccess,
      handler: routeHandler,
    });
    if (!isPublicCall(call)) return;
    app.route({
      method: call.method,
      url: `${PUBLIC_API_BASE}${call.path}`,
      ...(options.bodyLimit && { bodyLimit: options.bodyLimit }),
      // Only the key is checked: a key's holder is ACTIVE (api-keys/keys.ts), and its calls are limited per key.
      config: { skipClientChecks: true },
      preValidation: auth.keyAccess,
      handler: routeHandler,
    });
  };
}
