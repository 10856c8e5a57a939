/**
 * What the API reference page reads of the public API's OpenAPI document (decision "API reference page"): its
 * operations in the document's order, each with the query parameters, the body's fields and the answer's `data`,
 * as plain field trees a page can list. Only the parts of JSON Schema the contract's documents use.
 */

/** The JSON Schema subset the contract's document is written in. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  format?: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  description?: string;
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** One field of a request or an answer: its name, its type in words, its limits, and its own fields. */
export interface Field {
  name: string;
  type: string;
  required: boolean;
  /** Allowed values, limits and the field's own description. */
  notes: string[];
  fields: Field[];
}

export interface Endpoint {
  method: string;
  path: string;
  /** The first part of the path: the reference groups calls by it (points, tasks, project…). */
  group: string;
  summary: string;
  description: string | undefined;
  query: Field[];
  body: Field[];
  answer: Field[];
}

const typeNames = (schema: Schema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typeNames);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.map((type) => (type === 'array' && schema.items ? `${typeNames(schema.items).join(' | ')}[]` : type));
};

function notesOf(schema: Schema): string[] {
  const notes: string[] = [];
  const values = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (values) notes.push(values.map((value) => JSON.stringify(value)).join(' | '));
  if (schema.minimum !== undefined || schema.maximum !== undefined) notes.push(`${schema.minimum ?? '…'}–${schema.maximum ?? '…'}`);
  if (schema.maxLength !== undefined) notes.push(`≤ ${schema.maxLength} chars`);
  if (schema.maxItems !== undefined) notes.push(`≤ ${schema.maxItems} items`);
  if (schema.format) notes.push(schema.format);
  if (schema.description) notes.push(schema.description);
  return notes;
}

/** The fields of an object schema (or of the objects an array or a union holds), nested as far as they go. */
export function fieldsOf(schema: Schema | undefined): Field[] {
  if (!schema) return [];
  if (schema.items) return fieldsOf(schema.items);
  if (schema.anyOf) return schema.anyOf.flatMap(fieldsOf);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, child]) => ({
    name,
    type: typeNames(child).join(' | ') || 'any',
    required: required.has(name),
    notes: notesOf(child),
    fields: fieldsOf(child),
  }));
}

const json = (part: { content?: Record<string, { schema?: Schema }> } | undefined) => part?.content?.['application/json']?.schema;

/** Every operation of the document, in its order. */
export function endpointsOf(document: OpenApiDocument): Endpoint[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const answer = json(operation.responses?.['200'])?.properties?.data;
      return {
        method: method.toUpperCase(),
        path,
        group: path.split('/')[1] ?? '',
        summary: operation.summary ?? '',
        description: operation.description,
        query: (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({
            name: parameter.name,
            type: typeNames(parameter.schema).join(' | ') || 'any',
            required: parameter.required === true,
            notes: [...notesOf(parameter.schema), ...(parameter.description ? [parameter.description] : [])],
            fields: [],
          })),
        body: fieldsOf(json(operation.requestBody)),
        answer: answer
          ? answer.properties || answer.items || answer.anyOf
            ? fieldsOf(answer)
            : [{ name: 'data', type: typeNames(answer).join(' | '), required: true, notes: notesOf(answer), fields: [] }]
          : [],
      };
    }),
  );
}
