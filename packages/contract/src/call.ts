import type { z } from 'zod';

/**
 * Who may make a call: anyone, any signed-in user (ACTIVE or INACTIVE), or only an ACTIVE user (spec "Roles and permissions").
 */
export type Access = 'public' | 'signedIn' | 'active';

/** One API call: its path under `/{prefix}/api`, its inputs and the `data` of its answer. */
export interface Call {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  data: z.ZodType;
}

/** Keeps the literal type of a call, so `call.body` is its exact schema. */
export const defineCall = <const C extends Call>(call: C): C => call;

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
export type CallQuery<C extends Call> = InputOf<C['query']>;
export type CallBody<C extends Call> = InputOf<C['body']>;
export type CallData<C extends Call> = z.output<C['data']>;

/** A call's method, path and access: what it takes to send a call that has no inputs to parse. */
export type CallRoute<C extends Call = Call> = Pick<C, 'method' | 'path' | 'access'>;

/**
 * The calls the web app's shell makes on every page (who is signed in, the credit balance, the client log, the user
 * menu's sign-out), as routes: this module imports no zod at run time, so a first visit makes them without downloading the schemas
 * (decision "First-load bundle split"). The calls themselves spread these, so each path is written once.
 */
export const SHELL_ROUTES = {
  authSession: { method: 'GET', path: '/auth/session', access: 'public' },
  pointsAccount: { method: 'GET', path: '/points/account', access: 'active' },
  pointsRefresh: { method: 'POST', path: '/points/refresh', access: 'active' },
  logCollect: { method: 'POST', path: '/log/collect', access: 'public' },
  usersLogout: { method: 'POST', path: '/users/logout', access: 'public' },
} as const satisfies Record<string, CallRoute>;
