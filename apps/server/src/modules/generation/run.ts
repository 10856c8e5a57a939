// What every generation task does around its provider call: a work directory of its own, the six progress stages
// in order, the provider's failures as clear task errors, and the outputs stored as the user's generated assets.
import { randomUUID } from 'node:crypto';
import type { ProgressStage } from '@reelsmith/contract';
import { ProgressStage as Stages } from '@reelsmith/contract';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { ProviderError, ProviderTimeoutError } from '../../providers/http.js';
import { type Capability, type GenerationJob, type GenerationProviders, isSandbox } from '../../providers/provider.js';
import { discard, type IngestedFile, ingest } from '../files/ingest.js';
import { addFile } from '../files/records.js';
import { withWorkDir } from '../files/workDir.js';
import type { TaskJob } from '../tasks/definition.js';

/** The provider of a capability, or the error that says the tool is not available here (before any charge). */
export function providerOf<C extends Capability>(ctx: AppContext, capability: C): NonNullable<GenerationProviders[C]> {
  const provider = ctx.providers[capability];
  if (!provider) throw new AppError('capabilityUnavailable');
  return provider as NonNullable<GenerationProviders[C]>;
}

/** Reports each stage up to `stage` that was not reported yet, so the stages always arrive in order, none skipped. */
function stagesOf(job: TaskJob<unknown>) {
  let reached = -1;
  return async (stage: ProgressStage) => {
    const target = Stages.options.indexOf(stage);
    while (reached < target) {
      reached++;
      await job.progress(Stages.options[reached] as ProgressStage);
    }
  };
}

const REFUSED = /safety|nsfw|content polic|moderation|flagged|not allowed/i;

/** A vendor's failure as the user sees it; the vendor's own words stay in the cause, for the logs. */
export function taskError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || !(error instanceof ProviderError)) return error;
  if (error instanceof ProviderTimeoutError) return new AppError('providerTimedOut', {}, { cause: error });
  if (error.status === 429) return new AppError('providerBusy', {}, { cause: error });
  if (error.status === 400 || error.status === 422 || REFUSED.test(error.message))
    return new AppError('providerRejected', {}, { cause: error });
  return new AppError('providerFailed', {}, { cause: error });
}

/** What a task's result adds when a stand-in made its outputs: `standIn: true`, else nothing. */
export const standInOf = (provider: { name: string }): { standIn?: true } => (isSandbox(provider) ? { standIn: true } : {});

export interface StoredOutput {
  resKey: string;
}

export interface GenerationSteps<T> {
  /** Fetches and checks the inputs into the work directory ('parsing'). */
  prepare(dir: string): Promise<T>;
  /** Calls the provider ('understanding' onwards) and answers the output files. */
  generate(inputs: T, job: GenerationJob): Promise<string[]>;
  /** The stored file's name, from the output's number (from 1). */
  name(index: number): string;
  /** The provider making the outputs: the sandbox's are stored as a stand-in's (decision "Stand-ins are free"). */
  madeBy: { name: string };
}

/**
 * Runs a generation: inputs, provider, then every output checked by content and stored as one of the user's
 * generated assets. If anything fails, the outputs stored so far are removed again: a failed task is refunded and
 * leaves nothing behind.
 */
export async function runGeneration<T>(job: TaskJob<unknown>, steps: GenerationSteps<T>): Promise<StoredOutput[]> {
  const { ctx, signal } = job;
  const progress = stagesOf(job);
  return withWorkDir(ctx.settings, async (dir) => {
    await progress('parsing');
    const inputs = await steps.prepare(dir);
    await progress('understanding');
    let paths: string[];
    try {
      await progress('initialFrames');
      paths = await steps.generate(inputs, { workDir: dir, signal, progress });
    } catch (error) {
      throw taskError(error, signal);
    }
    await progress('rendering');
    const stored: IngestedFile[] = [];
    const rows: string[] = [];
    try {
      for (const path of paths) {
        const fileId = randomUUID();
        const file = await ingest(ctx, { userId: job.userId, fileId, path, signal }).catch((error: unknown) => {
          // What the vendor sent is not a picture or video we can keep: its failure, not the user's.
          if (error instanceof AppError) throw new AppError('providerFailed', {}, { cause: error });
          throw error;
        });
        stored.push(file);
        await progress('polishing');
        await addFile(
          ctx,
          {
            userId: job.userId,
            fileId,
            name: steps.name(rows.length + 1),
            source: 'generated',
            projectId: job.projectId,
            standIn: isSandbox(steps.madeBy),
          },
          file,
        );
        rows.push(fileId);
      }
    } catch (error) {
      if (rows.length) await ctx.db.delete(files).where(inArray(files.id, rows));
      await Promise.all(stored.map((file) => discard(ctx, file)));
      throw error;
    }
    await progress('polishing');
    return stored.map((file) => ({ resKey: file.resKey }));
  });
}

/** The thumbnail (a video's poster frame) stored beside a file: `u/<user>/<fileId>.thumb.webp`. */
const thumbKeyOf = (resKey: string) => resKey.replace(/\.[^./]+$/, '.thumb.webp');

/** Stored outputs with fresh signed links (and a video's poster): results are read long after they were written. */
export async function signedOutputs(ctx: AppContext, outputs: readonly { resKey: string }[], kind: 'image' | 'video') {
  return Promise.all(
    outputs.map(async ({ resKey }) => ({
      resKey,
      url: await ctx.storage.downloadUrl(resKey),
      ...(kind === 'video' && { posterUrl: await ctx.storage.downloadUrl(thumbKeyOf(resKey)) }),
    })),
  );
}
