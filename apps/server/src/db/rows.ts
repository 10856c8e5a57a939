// Rows that come back from raw SQL (an UPDATE … RETURNING Drizzle cannot write, a database function answering
// jsonb) in the database's column names, turned into the table's Drizzle row by the table's own column
// definitions, so no row type is copied by hand and a new column is picked up everywhere at once.
import { getTableColumns, type InferInsertModel, type InferSelectModel, type Table } from 'drizzle-orm';

/** A row in column names (`user_id`) as the table's Drizzle row (`userId`), each value decoded by its column. */
export function fromColumns<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

/**
 * A new row (`userId`) in column names (`user_id`) for a JSON document the database reads back as a row
 * (jsonb_populate_record): values stay as they are, JSON gives dates and objects their text; fields left out stay out.
 */
export function toColumns<T extends Table>(table: T, row: InferInsertModel<T>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    const value = (row as Record<string, unknown>)[field];
    if (value !== undefined) raw[column.name] = value;
  }
  return raw;
}
