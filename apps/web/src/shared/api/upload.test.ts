import { describe, expect, it } from 'vitest';
import { formatOf } from './upload';

describe('formatOf', () => {
  it('takes the extension of the name, in lower case', () => {
    expect(formatOf({ name: 'Hero.PNG', type: 'image/png' })).toBe('png');
    expect(formatOf({ name: 'clip.final.mov', type: 'video/quicktime' })).toBe('mov');
  });

  it('falls back to the MIME subtype when the name has no extension', () => {
    expect(formatOf({ name: 'image', type: 'image/jpeg' })).toBe('jpeg');
    expect(formatOf({ name: 'paste', type: '' })).toBe('');
  });
});
