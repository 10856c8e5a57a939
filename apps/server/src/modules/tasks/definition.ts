// What a kind of task is to the engine (design "Tasks"): how its input is checked, what it costs, and the work.
// Each task kind supplies one of these; the queue, the worker and the /task/v1/<kind> routes do the rest.
import type { ErrorKey, ProgressStage, SkuCode, User } from '@reelsmith/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import type { Part } from '../../parts.js';
import type { Capability } from '../../providers/provider.js';

/**
 * The SKU and number of outputs a task is charged for when it is submitted, and any further SKUs it pays for at
 * once (an export with a presenter: decision "Presenter in link to video").
 */
export interface TaskPrice {
  sku: SkuCode;
  count: number;
  /** The capability doing the work where it is not the SKU's usual one: a stand-in's work is free (decision "Stand-ins are free"). */
  madeBy?: Capability | undefined;
  also?: readonly { sku: SkuCode; count: number }[] | undefined;
}

/** A logger whose lines carry the task's id, kind and worker (pino's child of the process logger). */
export type TaskLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** What a worker hands the work of one attempt at a task. */
export interface TaskJob<I> {
  taskId: string;
  userId: string;
  projectId: string | null;
  input: I;
  /** Which attempt this is, from 1: a task whose worker died runs again. */
  attempt: number;
  /** Aborts when the task is cancelled, runs out of time, or this worker lost its lease: stop and throw. */
  signal: AbortSignal;
  /** Reports the stage the work has reached (spec "States and transitions"'s six, in order). */
  progress(stage: ProgressStage): Promise<void>;
  /**
   * Stores what the work has made so far, which a query answers while the task runs (three previews show one
   * by one as each lands); the result the work returns replaces it.
   */
  partial(result: unknown): Promise<void>;
  /**
   * Adds a write to the transaction that records the task's SUCCESS, so it exists exactly when the success does
   * (a link-video task's preview rows: decision "Previews as rows"). Not run when the result is not the task's
   * (cancelled, lease lost); a write that throws rolls the success back and the task fails.
   */
  atCompletion(write: (tx: Db) => Promise<void>): void;
  ctx: AppContext;
  log: TaskLog;
}

export interface TaskDefinition<I = unknown, R = unknown> {
  /** The taskPath of `/task/v1/<kind>` for the contract's kinds; an internal name (e.g. asset-url) otherwise. */
  kind: string;
  /** The submitted input, checked before anything is written. */
  input: z.ZodType<I>;
  /**
   * The parts of the machine the work runs on (parts.ts: ffmpeg, fonts, music, speech, cutout), or the function
   * choosing them by the providers the settings chose. A submission is refused with toolUnavailable, before it is
   * charged, when one is missing (decision "Start-up checks"); none when absent.
   */
  needs?: readonly Part[] | ((ctx: AppContext) => readonly Part[]);
  /** What submitting costs (it may depend on earlier tasks, hence the context); free when absent or null. */
  price?(input: I, ctx: AppContext, user: User): TaskPrice | null | Promise<TaskPrice | null>;
  /**
   * What makes one task of this kind take longer than another, as a short label kept with the task (`15s×3`: three
   * previews of 15 s): its progress estimate is measured on tasks of the same label (decision "Progress
   * estimates"). Absent or null, every task of the kind is measured alike.
   */
  workload?(input: I, ctx: AppContext, user: User): string | null | Promise<string | null>;
  /**
   * Checks that need the database before anything is charged (the projects and files it names are the
   * user's); throws an AppError to refuse the submission.
   */
  accept?(ctx: AppContext, user: User, input: I): Promise<void>;
  /**
   * The work: answers the result the query reports on SUCCESS. Throwing fails the task: an AppError with the
   * message of its key (localised when the task is read), anything else as "Generation failed" (and logged).
   */
  run(job: TaskJob<I>): Promise<R>;
  /**
   * The stored result as a query answers it, e.g. with fresh signed links for the stored keys it names (links
   * expire; a result is read for as long as the project lives). The stored result as is when absent.
   */
  view?(result: R, ctx: AppContext): R | Promise<R>;
  /**
   * Called once when the task ends in FAILURE, however it got there (the work threw, it was cancelled, its
   * workers kept dying), after the refund, so the kind can mark what it made as failed (an import's file).
   */
  failed?(ctx: AppContext, task: { taskId: string; userId: string; input: I }, error: StoredTaskError): Promise<void>;
  /** How long one attempt may run before it is stopped and the task fails; 15 minutes when absent. */
  timeoutMs?: number;
  /** How many times a task is started in all when its worker keeps dying; 3 when absent. */
  maxAttempts?: number;
}

/** A task's error as stored: a key of the error table with its parameters, or a message given as is. */
export type StoredTaskError = { key: ErrorKey; params?: Record<string, string | number> } | { message: string };

/** Erases a definition's input and result types, for the lists the engine keeps. */
// biome-ignore lint/suspicious/noExplicitAny: the engine handles every kind alike; each definition is typed where it is written.
export type AnyTaskDefinition = TaskDefinition<any, any>;

/** The parts a kind needs with these settings and providers. */
export const needsOf = (definition: AnyTaskDefinition, ctx: AppContext): readonly Part[] =>
  typeof definition.needs === 'function' ? definition.needs(ctx) : (definition.needs ?? []);
