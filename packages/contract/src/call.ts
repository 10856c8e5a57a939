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
