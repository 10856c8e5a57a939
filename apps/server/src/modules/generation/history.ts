// POST /generation/history: the caller's tasks of one tool (or of the modes of one page, in one list), newest first,
// a page at a time, each with its tool, what was asked, how far it got, its outputs with fresh signed links, and its
// error in the caller's language, and whether the sandbox's free stand-in made its outputs (decision "Stand-ins are
// free").
import type { GenerationRecord, GenerationTool, Locale, TaskStatus } from '@reelsmith/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { tasks } from '../../db/schema.js';
import type { StoredTaskError } from '../tasks/definition.js';
import { taskErrorMessage } from '../tasks/routes.js';
import { signedOutputs } from './run.js';

type Outputs = { images?: { resKey: string }[]; videos?: { resKey: string }[]; standIn?: true };

export async function generationHistory(
  ctx: AppContext,
  userId: string,
  query: { tool: GenerationTool | GenerationTool[]; page: number; pageSize: number },
  locale: Locale,
): Promise<GenerationRecord[]> {
  const kinds = typeof query.tool === 'string' ? [query.tool] : query.tool;
  const rows = await ctx.db
    .select()
    .from(tasks)
    .where(and(eq(tasks.userId, userId), inArray(tasks.kind, kinds)))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return Promise.all(
    rows.map(async (row) => {
      const result = (row.status === 'SUCCESS' ? row.result : null) as Outputs | null;
      const outputs = result?.videos
        ? await signedOutputs(ctx, result.videos, 'video')
        : result?.images
          ? await signedOutputs(ctx, result.images, 'image')
          : [];
      return {
        taskId: row.id,
        tool: row.kind as GenerationTool,
        status: row.status as TaskStatus,
        progress: (row.progress as GenerationRecord['progress']) ?? null,
        input: row.input as Record<string, unknown>,
        outputs,
        error: row.status === 'FAILURE' && row.error ? taskErrorMessage(row.error as StoredTaskError, locale) : null,
        createTime: row.createdAt.toISOString(),
        ...(result?.standIn && { standIn: true as const }),
      };
    }),
  );
}
