// Test helpers for the tool pages: history records, prices, and a service that takes a submit and answers its queries.
import { type GenerationRecord, type GenerationTool, type LibraryAsset, taskSubmitPath } from '@reelsmith/contract';
import { type BoundFunctions, type queries, screen, waitFor, within } from '@testing-library/react';
import { fakeClock } from '../../test/clock';
import { libraryAsset } from '../../test/fixtures';
import { ok, stubApi } from '../../test/renderApp';

export const ACCOUNT = ok({ totalPoints: 100, availablePoints: 100, usedPoints: 0, expiredPoints: 0, expiring: [] });

export const record = (tool: GenerationTool, taskId: string, change: Partial<GenerationRecord> = {}): GenerationRecord => ({
  taskId,
  tool,
  status: 'SUBMITTED',
  progress: null,
  input: { prompt: `prompt of ${taskId}` },
  outputs: [],
  error: null,
  createTime: '2026-11-20T10:00:00.000Z',
  ...change,
});

/** The default prices (docs/decisions.md, Credits). */
export const PRICES: Record<string, number> = {
  t2Video_std_5s: 20,
  t2Video_std_10s: 35,
  t2Video_pro_5s: 35,
  t2Video_pro_10s: 60,
  img2Video_std_5s: 20,
  img2Video_std_10s: 35,
  img2Video_pro_5s: 35,
  img2Video_pro_10s: 60,
  img2VideoLocal_std_5s: 4,
  img2VideoLocal_std_10s: 6,
  img2VideoLocal_pro_5s: 6,
  img2VideoLocal_pro_10s: 10,
  imageGen: 4,
  imageGenV2: 6,
  imageTryOn: 8,
  imageBg: 2,
  extendImg: 3,
  imageEnhance: 2,
  avatarVideo: 3,
  productHolding: 4,
};

type Answer = ReturnType<typeof ok>;
type Answers = Parameters<typeof stubApi>[0];

interface ToolService {
  tool: GenerationTool;
  /** What the task query answers, one after another; the last one is repeated. */
  queries?: Record<string, unknown>[];
  /** Records already in the history, newest first. */
  history?: GenerationRecord[];
  extra?: Answers;
  /** The SKUs the sandbox's stand-ins do here: free (decision "Stand-ins are free"). */
  standIns?: readonly string[];
}

/**
 * A stubbed service for one tool: prices, balance, the history (paged as asked), the submit (which puts a
 * SUBMITTED record at the head of the history) and the task query. Answers what was submitted and the calls made.
 */
export function stubTool({ tool, queries = [], history = [], extra = {}, standIns = [] }: ToolService) {
  fakeClock();
  const submitted: unknown[] = [];
  const rows = [...history];
  const pending = [...queries];
  const calls = stubApi({
    '/points/account': ACCOUNT,
    '/points/refresh': ACCOUNT,
    '/points/skuPrice': (_body, query) => {
      const skuCode = query.get('skuCode') ?? '';
      const standIn = standIns.includes(skuCode);
      return ok({ skuCode, price: standIn ? 0 : (PRICES[skuCode] ?? 0), standIn });
    },
    '/generation/history': (body) => {
      const { page, pageSize } = body as { page: number; pageSize: number };
      return ok(rows.slice((page - 1) * pageSize, page * pageSize));
    },
    [taskSubmitPath(tool)]: (body): Answer => {
      submitted.push(body);
      const taskId = `task-${submitted.length}`;
      rows.unshift(record(tool, taskId, { input: body as Record<string, unknown> }));
      return ok({ taskId });
    },
    [`/task/v1/${tool}/query`]: (): Answer => {
      const answer = (pending.length > 1 ? pending.shift() : pending[0]) ?? { status: 'SUBMITTED' };
      return ok({ taskId: `task-${submitted.length}`, ...answer });
    },
    ...extra,
  });
  return { submitted, calls };
}

/** A stored picture of the library, at links and a size the tool tests read. */
export const libraryImage = (fileId: string, change: Partial<LibraryAsset> = {}): LibraryAsset =>
  libraryAsset(fileId, {
    fileUrl: `http://files.test/${fileId}.png`,
    downloadUrl: null,
    thumbnailUrl: null,
    resKey: `u/u1/${fileId}.png`,
    width: 800,
    height: 800,
    ...change,
  });

/** The library's answer holding these pictures. */
export const libraryOf = (...assets: LibraryAsset[]) => ok({ total: assets.length, list: assets });

/**
 * Finds something in the generation history. The history is mounted afresh after each submit, so it is looked up
 * again on every try rather than held; polls come 2 s apart on a loaded machine, hence the long wait.
 */
export const inHistory = (find: (history: BoundFunctions<typeof queries>) => HTMLElement) =>
  waitFor(() => find(within(screen.getByRole('region', { name: 'Generation history' }))), { timeout: 30_000 });
