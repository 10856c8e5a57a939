/** Reading JSON that pages embed, whose shape nobody promises. */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export const asArray = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The parsed JSON, or undefined. Shops hand-write their scripts: HTML comment or CDATA wrappers and raw line
 * breaks inside strings are common, and browsers' JSON.parse would refuse them too, so both are forgiven.
 */
export function parseLenient(text: string): unknown {
  const body = text.replace(/^\s*(<!--|<!\[CDATA\[)|(-->|\]\]>)\s*$/g, '');
  for (const attempt of [body, body.replace(/[\r\n\t]+/g, ' ')]) {
    try {
      return JSON.parse(attempt);
    } catch {}
  }
  return undefined;
}

/**
 * The JSON object or array literal that follows `marker` (a string or a pattern) in a script, as in
 * `var meta = {…};`, found by matching brackets outside strings, since the script goes on after it; undefined when
 * there is none or it does not parse.
 */
export function literalAfter(script: string, marker: string | RegExp): unknown {
  const found = typeof marker === 'string' ? { index: script.indexOf(marker), length: marker.length } : markerMatch(script, marker);
  if (found.index < 0) return undefined;
  const start = script.slice(found.index + found.length).search(/[[{]/) + found.index + found.length;
  if (start < found.index + found.length) return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < script.length; i++) {
    const c = script[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return parseLenient(script.slice(start, i + 1));
  }
  return undefined;
}

function markerMatch(script: string, marker: RegExp) {
  const match = marker.exec(script);
  return match ? { index: match.index, length: match[0].length } : { index: -1, length: 0 };
}
