import { z } from 'zod';
import { defineCall } from './call.js';
import { HttpUrl, Id, Timestamp } from './common.js';
import { Locale } from './enums.js';
import { TemplateId } from './templates.js';

/**
 * Batches (decision "Batch"): many product links to many ads in one go. Each row becomes a project of its own, analysed,
 * previewed once in the row's template and, when the batch exports, exported, through the ordinary tasks.
 */
export const BATCH_ROWS_MAX = 500;
/** The longest CSV or list of links a batch is made from: 500 rows of long links and names. */
export const BATCH_TEXT_MAX = 1_000_000;
export const BATCH_NAME_MAX = 200;
/**
 * A user's batches running at once at most (decision "Fair share of the workers"): rows already wait their turn, so
 * more batches only store more rows; a new one waits for one to finish.
 */
export const BATCHES_RUNNING_MAX = 3;
/** The CSV's columns, in the order a template shows them; only `link` is required. */
export const BATCH_CSV_COLUMNS = ['link', 'name', 'length', 'template', 'language', 'voice'] as const;

export const BatchVideoLength = z.union([z.literal(15), z.literal(30), z.literal(45)]);
export const BatchAspectRatio = z.enum(['9:16', '1:1', '16:9']);

/** What one row may choose for itself instead of the batch's options. */
export const BatchRowInput = z.strictObject({
  link: HttpUrl,
  name: z.string().trim().min(1).max(BATCH_NAME_MAX).optional(),
  videoLength: BatchVideoLength.optional(),
  templateId: TemplateId.optional(),
  language: Locale.optional(),
  voiceId: z.string().max(64).optional(),
});
export type BatchRowInput = z.infer<typeof BatchRowInput>;

/** The batch's choices for every row; `export` also exports each row's preview as the finished ad (charged). */
export const BatchOptions = z.strictObject({
  aspectRatio: BatchAspectRatio.default('9:16'),
  videoLength: BatchVideoLength.default(15),
  templateId: TemplateId.optional(),
  language: Locale.optional(),
  voiceId: z.string().max(64).optional(),
  export: z.boolean().default(false),
});
export type BatchOptions = z.infer<typeof BatchOptions>;

/**
 * A batch's rows: `text` is a CSV with the header row `link,name,length,template,language,voice` (only `link`
 * required) or plain links, one per line; or `rows`, the same as a list.
 */
export const BatchSource = z.strictObject({
  text: z.string().max(BATCH_TEXT_MAX).optional(),
  rows: z.array(BatchRowInput).max(BATCH_ROWS_MAX).optional(),
  options: BatchOptions.default({ aspectRatio: '9:16', videoLength: 15, export: false }),
});
export type BatchSource = z.input<typeof BatchSource>;

/** waiting → analysing → rendering → (exporting →) done; or failed (with the reason), or cancelled. */
export const BatchRowStatus = z.enum(['waiting', 'analysing', 'rendering', 'exporting', 'done', 'failed', 'cancelled']);
export type BatchRowStatus = z.infer<typeof BatchRowStatus>;
export const BatchStatus = z.enum(['running', 'finished', 'cancelled']);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** A row that cannot be read: its number (1 = the first row after any header) and why, in the request's language. */
export const BatchProblem = z.object({ row: z.number().int(), message: z.string() });

export const BatchRow = z.object({
  /** From 1, in the order given. */
  row: z.number().int(),
  link: z.string(),
  /** The row's own name, else its project's (the product's, once analysed). */
  name: z.string().nullable(),
  status: BatchRowStatus,
  projectId: z.string().nullable(),
  /** Why the row failed, in the request's language. */
  error: z.string().nullable(),
  previewUrl: z.string().nullable(),
  exportUrl: z.string().nullable(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const BatchCounts = z.object({
  total: z.number().int(),
  waiting: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});

export const BatchSummary = z.object({
  batchId: z.string(),
  status: BatchStatus,
  options: BatchOptions,
  counts: BatchCounts,
  createTime: Timestamp,
  finishTime: Timestamp.nullable(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const Batch = BatchSummary.extend({ rows: z.array(BatchRow) });
export type Batch = z.infer<typeof Batch>;

/** What a batch would cost before it is made: each row's price (its preview, and its export when exporting). */
export const BatchQuote = z.object({
  rows: z.number().int(),
  creditsPerRow: z.number().int(),
  credits: z.number().int(),
  availableCredits: z.number().int(),
  /** How many rows the available credits cover. */
  coverableRows: z.number().int(),
  problems: z.array(BatchProblem),
});
export type BatchQuote = z.infer<typeof BatchQuote>;

/** Reads the rows and prices them without making anything; rows that cannot be read are listed, not refused. */
export const batchQuote = defineCall({ method: 'POST', path: '/batch/quote', access: 'active', body: BatchSource, data: BatchQuote });

/**
 * Makes the batch and starts it; refused whole, before anything is made or charged, when a row cannot be read or
 * the available credits cannot cover every row (saying how many they can).
 */
export const batchCreate = defineCall({ method: 'POST', path: '/batch/create', access: 'active', body: BatchSource, data: Batch });

export const batchList = defineCall({
  method: 'GET',
  path: '/batch/list',
  access: 'active',
  query: z.strictObject({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ list: z.array(BatchSummary) }),
});

const BatchId = z.strictObject({ batchId: Id });

export const batchGet = defineCall({ method: 'GET', path: '/batch/get', access: 'active', query: BatchId, data: Batch });

/** Starts the failed rows again (priced and refused up front as a new batch is). */
export const batchRetry = defineCall({ method: 'POST', path: '/batch/retry', access: 'active', body: BatchId, data: Batch });

/** Stops the batch: waiting rows are cancelled, running tasks cancelled and refunded. */
export const batchCancel = defineCall({ method: 'POST', path: '/batch/cancel', access: 'active', body: BatchId, data: Batch });

/**
 * Signed links to the results CSV and the zip of every export: they need no session or key, so a browser's
 * download or a script's plain GET fetches them; they expire.
 */
export const batchDownloads = defineCall({
  method: 'GET',
  path: '/batch/downloads',
  access: 'active',
  query: BatchId,
  data: z.object({ csvUrl: z.string(), zipUrl: z.string() }),
});
