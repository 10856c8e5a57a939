// Reading an error for what caused it, for the failures told to users plainly (outage.ts, misconfigured.ts).
/** The error and the errors behind it: `cause` chains (drizzle wraps the driver's error, an AppError a provider's) and AggregateError's list. */
export function* errorChain(error: unknown, depth = 0): Generator<unknown> {
  if (!error || depth > 8) return;
  yield error;
  if (error instanceof AggregateError) for (const inner of error.errors) yield* errorChain(inner, depth + 1);
  if (error instanceof Error) yield* errorChain(error.cause, depth + 1);
}

/** An error's `code` (an errno's name, a SQLSTATE, an app's own), whatever its type. */
export const codeOf = (error: unknown) => (error as { code?: unknown }).code;
