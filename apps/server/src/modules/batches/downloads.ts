// A batch's downloads (decision "Batch"): the results as CSV and every video in one zip. The zip is streamed: each
// video is opened only when the zip reaches it (yazl's lazy entries) and stored uncompressed (MP4 is compressed
// already), so memory holds a few chunks, whatever the batch's size, and the first bytes leave at once.
import { PassThrough, type Readable } from 'node:stream';
import type { Locale } from '@reelsmith/contract';
import { ZipFile } from 'yazl';
import type { AppContext } from '../../context.js';
import { errorText, rowsWithVideos } from './service.js';

export const BATCH_CSV_PATH = '/batch/results.csv';
export const BATCH_ZIP_PATH = '/batch/videos.zip';

/** What makes a spreadsheet read a cell as a formula: =, +, - or @ first (after spaces), or a tab or return. */
const FORMULA = /^(\s*[=+\-@]|[\t\r])/;
/** Where a spreadsheet may split a cell: on `;` in most European locales, on `,` or a tab elsewhere. */
const SEPARATORS = /([;,\t])/;

/**
 * A cell as spreadsheets read it, never a formula (decision "Batch"): every part a spreadsheet might split off
 * (`http://…/a;=1+1;` in a locale that splits on `;`) that would start one gets a `'` before it, and every cell is
 * quoted, so a separator inside it stays inside.
 */
export function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // split() with a group keeps the separators at the odd places; only the parts between them are defused.
  const safe = text
    .split(SEPARATORS)
    .map((part, i) => (i % 2 === 0 && FORMULA.test(part) ? `'${part}` : part))
    .join('');
  // A cell that starts with a tab or a return starts one whatever the split.
  const whole = FORMULA.test(safe) ? `'${safe}` : safe;
  return `"${whole.replaceAll('"', '""')}"`;
}

/** An absolute address for a link the storage made relative (the local driver's), so the CSV works on its own. */
const absolute = (ctx: AppContext, url: string) => (url.startsWith('/') ? `${ctx.settings.publicUrl.replace(/\/$/, '')}${url}` : url);

/** The results CSV: row, link, project, status, error (in `locale`), preview and export links. */
export async function resultsCsv(ctx: AppContext, batchId: string, locale: Locale): Promise<string> {
  const rows = await rowsWithVideos(ctx.db, batchId);
  const link = async (key: string | null) => (key ? absolute(ctx, await ctx.storage.downloadUrl(key)) : null);
  const lines = [['row', 'link', 'project', 'status', 'error', 'preview_url', 'export_url'].join(',')];
  for (const row of rows) {
    const fields = [row.position, row.link, row.projectId, row.status, errorText(row.error, locale)];
    lines.push([...fields, await link(row.previewKey), await link(row.exportKey)].map(csvCell).join(','));
  }
  // A byte order mark, so spreadsheet programs read the names and errors as UTF-8.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const safeName = (name: string) => name.replace(/[^\p{L}\p{N}._ -]+/gu, '_').slice(0, 120);

/**
 * The zip of the batch's videos: each finished row's export, or its preview when the batch does not export, named
 * after its row so the CSV and the zip line up.
 */
export async function videosZip(ctx: AppContext, batchId: string): Promise<Readable> {
  const rows = await rowsWithVideos(ctx.db, batchId);
  const zip = new ZipFile();
  const width = String(rows.length).length;
  for (const row of rows) {
    const key = row.exportKey ?? row.previewKey;
    if (row.status !== 'done' || !key) continue;
    const name = `${String(row.position).padStart(width, '0')}-${safeName(row.exportName ?? `${row.projectName ?? row.projectId ?? row.id}.mp4`)}`;
    zip.addReadStreamLazy(name, { compress: false }, (callback) => {
      ctx.storage.read(key).then(
        (stream) => callback(null, stream),
        (error: unknown) => callback(error, new PassThrough()),
      );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}
