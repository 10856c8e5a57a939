import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [930, '930 B'],
    [1024, '1.0 KB'],
    [3 * 1024 * 1024, '3.0 MB'],
    [14.2 * 1024 * 1024, '14.2 MB'],
    [5 * 1024 ** 5, '5,120.0 TB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes, 'en')).toBe(text);
  });

  it('writes the number as the language does', () => {
    expect(formatBytes(1.5 * 1024 * 1024, 'pt')).toBe('1,5 MB');
  });
});
