import { PROJECT_NAME_MAX } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { nameToRename } from './projectName';

describe('nameToRename (spec "Validation rules" project name)', () => {
  it('renames to the trimmed draft', () => {
    expect(nameToRename('  Summer sale  ', 'Link to video')).toBe('Summer sale');
  });

  it('keeps the name when the draft is empty or blank', () => {
    expect(nameToRename('', 'Link to video')).toBeNull();
    expect(nameToRename('   ', 'Link to video')).toBeNull();
  });

  it('keeps the name when the draft equals it once trimmed', () => {
    expect(nameToRename('Summer sale', 'Summer sale')).toBeNull();
    expect(nameToRename(' Summer sale ', 'Summer sale')).toBeNull();
  });

  it('accepts exactly the maximum length and refuses more', () => {
    expect(nameToRename('a'.repeat(PROJECT_NAME_MAX), 'Video')).toBe('a'.repeat(PROJECT_NAME_MAX));
    expect(nameToRename('a'.repeat(PROJECT_NAME_MAX + 1), 'Video')).toBeNull();
    expect(nameToRename(` ${'a'.repeat(PROJECT_NAME_MAX)} `, 'Video')).toBe('a'.repeat(PROJECT_NAME_MAX));
  });
});
