// Walks a call's zod schema (zod 4's definitions) to attack it field by field: a value each field accepts (so one
// field at a time can be made wrong while the rest stays right), the list of fields with what each holds, and
// the wrong values of each kind of field.
import type { z } from 'zod';

type Path = (string | number)[];

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string>;
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers that only say a field may be left out (or be null): the field's own schema is inside. */
const OPTIONAL_WRAPPERS = new Set(['optional', 'default', 'prefault']);
const TRANSPARENT_WRAPPERS = new Set(['nullable', 'readonly', 'catch', 'nonoptional']);

/** The schema of what a field holds, whether the field may be left out, and whether it may be null. */
export function unwrap(schema: z.ZodType): { schema: z.ZodType; optional: boolean; nullable: boolean } {
  let current = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(current);
    if (OPTIONAL_WRAPPERS.has(def.type) || TRANSPARENT_WRAPPERS.has(def.type)) {
      optional ||= OPTIONAL_WRAPPERS.has(def.type);
      nullable ||= def.type === 'nullable';
      current = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      current = def.in as z.ZodType;
    } else {
      return { schema: current, optional, nullable };
    }
  }
}

export type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'enum' | 'literal' | 'union' | 'other';

const KINDS: Record<string, FieldKind> = {
  string: 'string',
  number: 'number',
  int: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
  enum: 'enum',
  literal: 'literal',
  union: 'union',
};

export const kindOf = (schema: z.ZodType): FieldKind => KINDS[defOf(unwrap(schema).schema).type] ?? 'other';

const checkValue = (schema: z.ZodType, check: string, key: 'minimum' | 'maximum') =>
  defOf(schema)
    .checks?.map((c) => c._zod.def)
    .find((c) => c.check === check)?.[key];

/** The most characters a string field takes, when its schema bounds it. */
export const maxLengthOf = (schema: z.ZodType) => checkValue(unwrap(schema).schema, 'max_length', 'maximum');

/** Values a leaf field is likely to accept; the first its schema takes is used. */
const CANDIDATES: Partial<Record<FieldKind, unknown[]>> = {
  string: ['x', 'png', '1:1', 'a@example.com', 'https://shop.example/item.png', '#336699', '54.90', 'USD', '2026-01-01T00:00:00.000Z'],
  number: [1, 2, 5, 15, 16, 0],
  boolean: [true],
};

export interface SampleOptions {
  /** Fill optional fields too (every field is then attacked), or leave them out. */
  optionals: boolean;
}

/** A value `schema` accepts: every required field (and the optional ones when asked) filled with a plausible value. */
export function sampleOf(schema: z.ZodType, options: SampleOptions): unknown {
  const { schema: inner } = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (unwrap(field).optional && !options.optionals) continue;
        value[key] = sampleOf(field, options);
      }
      // A rule across fields (a price before a sale above the price) may refuse the plain values: leave out the
      // optional field it names.
      const refused = inner.safeParse(value);
      if (!refused.success) {
        for (const issue of refused.error.issues) {
          const key = String(issue.path[0]);
          if (issue.path.length === 1 && unwrap(def.shape?.[key] as z.ZodType).optional) delete value[key];
        }
      }
      return value;
    }
    case 'array': {
      const count = Math.max(1, checkValue(inner, 'min_length', 'minimum') ?? 0);
      return Array.from({ length: count }, () => sampleOf(def.element as z.ZodType, options));
    }
    case 'literal':
      return def.values?.[0];
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'union':
      for (const option of def.options ?? []) {
        const value = sampleOf(option, options);
        if (inner.safeParse(value).success) return value;
      }
      break;
    case 'record':
      return {};
    default: {
      const found = (CANDIDATES[kindOf(inner)] ?? []).find((candidate) => inner.safeParse(candidate).success);
      if (found !== undefined) return found;
    }
  }
  throw new Error(`no sample value for a ${def.type} field`);
}

export interface Field {
  path: Path;
  /** The field's own schema, wrappers taken off. */
  schema: z.ZodType;
  kind: FieldKind;
  optional: boolean;
  /** Takes null (a brand kit without a logo); null is then no wrong value for it. */
  nullable: boolean;
}

/** Every field of an object schema, nested objects and the first element of arrays included, parents first. */
export function fieldsOf(schema: z.ZodType | undefined, path: Path = []): Field[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema).schema);
  const children: [string | number, z.ZodType][] =
    def.type === 'object' ? Object.entries(def.shape ?? {}) : def.type === 'array' ? [[0, def.element as z.ZodType]] : [];
  return children.flatMap(([key, child]) => {
    const { schema: inner, optional, nullable } = unwrap(child);
    const field: Field = { path: [...path, key], schema: inner, kind: kindOf(inner), optional, nullable };
    return [field, ...fieldsOf(inner, field.path)];
  });
}

/** `editorConfig.videoLength`, `fileIds.0`: a path as the validation message names it. */
export const pathText = (path: Path) => path.join('.');

/** A copy of `value` with the field at `path` set (parents made as needed). */
export function withField(value: unknown, path: Path, fieldValue: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return fieldValue;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head] = withField(copy[head] ?? (typeof rest[0] === 'number' ? [] : {}), rest, fieldValue);
  return copy;
}

/** The value at `path`, or undefined. */
export const fieldAt = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>((v, key) => (v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[key]), value);

/** Values of the wrong type for a field of this kind (null included, unless the field takes it). */
export function wrongValuesFor(field: Field, sample: unknown): unknown[] {
  return wrongValuesOfKind(field, sample).filter((value) => value !== null || !field.nullable);
}

function wrongValuesOfKind(field: Field, sample: unknown): unknown[] {
  switch (field.kind) {
    case 'string':
      return [12345, true, { text: 'x' }, ['x'], null];
    case 'number':
      return [String(sample ?? 1), true, { n: 1 }, [1], null, 1.5];
    case 'boolean':
      return ['true', 1, { b: true }, null];
    case 'object':
      return [[sample], 'object', 42, null];
    case 'array':
      return [{ 0: 'x' }, 'list', 42, null];
    case 'enum':
    case 'literal':
    case 'union':
      return [typeof sample === 'number' ? String(sample) : 12345, 'not-a-member', [sample], { v: sample }, null];
    default:
      return [];
  }
}
