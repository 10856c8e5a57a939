import { describe, expect, it } from 'vitest';
import { assetQuery, readFilters, writeFilters } from './filters';

describe('library filters in the address bar', () => {
  it('reads the plain address as all assets, newest first', () => {
    expect(readFilters(new URLSearchParams())).toEqual({ tab: 'assets', sort: 'newest' });
  });

  it('reads every filter, and ignores values that are not choices', () => {
    expect(readFilters(new URLSearchParams('tab=projects&type=video&source=url&status=draft&sort=oldest'))).toEqual({
      tab: 'projects',
      type: 'video',
      source: 'url',
      status: 'draft',
      sort: 'oldest',
    });
    expect(readFilters(new URLSearchParams('source=generated'))).toEqual({ tab: 'assets', source: 'generated', sort: 'newest' });
    expect(readFilters(new URLSearchParams('tab=trash&type=audio&source=ai&status=x&sort=random'))).toEqual({
      tab: 'assets',
      sort: 'newest',
    });
  });

  it('writes only what differs from the default, and reads back the same', () => {
    expect(writeFilters({ tab: 'assets', sort: 'newest' }).toString()).toBe('');
    const filters = { tab: 'projects', type: 'image', status: 'failed', sort: 'oldest' } as const;
    expect(writeFilters(filters).toString()).toBe('tab=projects&type=image&status=failed&sort=oldest');
    expect(readFilters(writeFilters(filters))).toEqual(filters);
  });

  it('sends the list call the filters and sort, not the tab', () => {
    expect(assetQuery({ tab: 'assets', source: 'local', sort: 'oldest' })).toEqual({
      type: undefined,
      source: 'local',
      status: undefined,
      sort: 'oldest',
    });
  });
});
