import { type GenerationRecord, type GenerationTool, generationHistory, type TaskStatus } from '@reelsmith/contract';
import { api } from '../../shared/api/client';
import { Pager } from '../../shared/paging/pager';

/** Rows of a history page: each may hold several pictures or videos, so fewer than the credit list's 40. */
export const HISTORY_PAGE_SIZE = 20;

/** A tool's generation history (or that of the modes of one page, in one list), newest first, one page at a time as the list is scrolled. */
export const generationHistoryPager = (tools: GenerationTool[]): Pager<GenerationRecord> =>
  new Pager(
    (page, signal) =>
      api(generationHistory, {
        body: { tool: tools.length === 1 ? (tools[0] as GenerationTool) : tools, page, pageSize: HISTORY_PAGE_SIZE },
        signal,
      }),
    HISTORY_PAGE_SIZE,
    (record) => record.taskId,
  );

export const isRunning = (status: TaskStatus): boolean => status !== 'SUCCESS' && status !== 'FAILURE';

/** The tools whose outputs are videos; the others make pictures. */
export const makesVideos = (tool: GenerationTool): boolean =>
  tool === 'text-to-video' || tool === 'image-to-video' || tool === 'avatar-video';
