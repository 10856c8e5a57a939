// A batch's rows from what the user gave (decision "Batch"): a CSV with a header row, plain links one per line, or
// the API's list. Every row that cannot be used is reported with its number and the field at fault, so a quote can
// list them all and a create refuses with the first, before anything is made.
import { BATCH_CSV_COLUMNS, BATCH_ROWS_MAX, type BatchRowInput, BatchRowInput as BatchRowSchema, type ErrorKey } from '@reelsmith/contract';
import { VOICES } from '@reelsmith/media';
import { parse } from 'csv-parse/sync';

/** A row that cannot be used: the error table's key and its parameters, localised when answered. */
export interface RowProblem {
  row: number;
  key: ErrorKey;
  params: Record<string, string | number>;
}

export interface ReadRows {
  rows: BatchRowInput[];
  problems: RowProblem[];
}

type Column = (typeof BATCH_CSV_COLUMNS)[number];
/** The CSV's column → the row's field. */
const FIELDS: Record<Column, keyof BatchRowInput> = {
  link: 'link',
  name: 'name',
  length: 'videoLength',
  template: 'templateId',
  language: 'language',
  voice: 'voiceId',
};

const invalid = (row: number, field: string, value: string): RowProblem => ({
  row,
  key: 'batchRowInvalid',
  params: { row, field, value: value.length > 80 ? `${value.slice(0, 77)}...` : value },
});

/** One row's fields by CSV column (empty cells are absent), checked as the API's rows are. */
function rowOf(row: number, cells: Partial<Record<Column, string>>): BatchRowInput | RowProblem {
  if (!cells.link) return invalid(row, 'link', '');
  const voice = cells.voice;
  if (voice && !VOICES.some((v) => v.voiceId === voice)) return invalid(row, 'voice', voice);
  const candidate: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(cells) as [Column, string][]) {
    if (value) candidate[FIELDS[column]] = column === 'length' && /^\d+$/.test(value) ? Number(value) : value;
  }
  const parsed = BatchRowSchema.safeParse(candidate);
  if (parsed.success) return normalised(parsed.data);
  const field = String(parsed.error.issues[0]?.path[0] ?? 'link');
  const column = (Object.entries(FIELDS).find(([, f]) => f === field)?.[0] ?? field) as Column;
  return invalid(row, column, cells[column] ?? '');
}

function readCsv(text: string): ReadRows {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
  } catch (error) {
    const line = Number((error as { lines?: number }).lines ?? 1);
    return { rows: [], problems: [{ row: 0, key: 'batchCsvInvalid', params: { line } }] };
  }
  const [header = [], ...data] = records;
  const columns = header.map((name) => name.toLowerCase());
  const unknown = columns.find((name) => !(BATCH_CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown !== undefined) return { rows: [], problems: [{ row: 0, key: 'batchCsvColumn', params: { column: unknown } }] };
  const rows: BatchRowInput[] = [];
  const problems: RowProblem[] = [];
  for (const [i, record] of data.entries()) {
    const cells = Object.fromEntries(columns.map((column, c) => [column, record[c] ?? ''])) as Partial<Record<Column, string>>;
    const read = rowOf(i + 1, cells);
    if ('key' in read) problems.push(read);
    else rows.push(read);
  }
  return { rows, problems };
}

/** A CSV starts with its header row, whose first column is `link`; anything else is links, one per line. */
const isCsv = (text: string) => /^\uFEFF?\s*"?link"?\s*(,|$)/i.test(text.split('\n', 1)[0] ?? '');

/** The rows of a CSV or a list of links. */
export function readRowsText(text: string): ReadRows {
  if (isCsv(text)) return readCsv(text);
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const rows: BatchRowInput[] = [];
  const problems: RowProblem[] = [];
  for (const [i, link] of lines.entries()) {
    const read = rowOf(i + 1, { link });
    if ('key' in read) problems.push(read);
    else rows.push(read);
  }
  return { rows, problems };
}

/**
 * The row with its link as a URL writes it (scheme and host in lower case, spaces and other characters escaped), so
 * what is stored, shown and put in the results CSV is a URL and not the text as typed.
 */
const normalised = (row: BatchRowInput): BatchRowInput => ({ ...row, link: new URL(row.link).href });

/** The rows of a batch's source, with the problems that refuse it as a whole (none, too many). */
export function readRows(source: { text?: string | undefined; rows?: BatchRowInput[] | undefined }): ReadRows {
  const read = source.rows?.length ? { rows: source.rows.map(normalised), problems: [] } : readRowsText(source.text ?? '');
  const total = read.rows.length + read.problems.filter((p) => p.row > 0).length;
  if (total > BATCH_ROWS_MAX) {
    return { rows: read.rows, problems: [{ row: 0, key: 'batchTooManyRows', params: { max: BATCH_ROWS_MAX, rows: total } }] };
  }
  if (total === 0 && read.problems.length === 0) return { rows: [], problems: [{ row: 0, key: 'batchEmpty', params: {} }] };
  return read;
}
