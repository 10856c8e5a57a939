import type { ByteRange } from './storage/storage.js';

/**
 * The one byte range of a `Range: bytes=…` header (RFC 9110 §14): `a-b`, `a-` or the last `-n` bytes, the end
 * clipped to the object. Answers undefined for no header, a malformed one or several ranges (the whole object is
 * then sent, which the RFC allows), and 'unsatisfiable' for a range that starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
