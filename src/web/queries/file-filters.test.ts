import { describe, expect, it } from 'vitest';
import { FilesSearch, fileListFilters, hasFilters, listQueryOf } from './file-filters.ts';

describe('FilesSearch', () => {
  it('keeps known values and drops bad ones instead of failing the page', () => {
    const folder = 'B5A1C9E2-1F0B-4C2D-9E8F-0A1B2C3D4E5F';
    expect(FilesSearch({ folder, type: 'image', origin: 'job', q: ' cat ', view: 'list' })).toEqual({
      folder: folder.toLowerCase(),
      type: 'image',
      origin: 'job',
      q: 'cat',
      view: 'list',
    });
    expect(FilesSearch({ folder: 'none' }).folder).toBe('none');
    expect(FilesSearch({ folder: '../x', type: 'pdf', origin: 'stolen', view: 'tiles' })).toEqual({});
  });

  it('turns the search into the list query the server takes', () => {
    const filters = fileListFilters(FilesSearch({ type: 'audio', origin: 'upload', q: '  ', view: 'list' }));
    expect(filters).toEqual({ type: 'audio', origin: 'upload' });
    expect(listQueryOf(filters)).toEqual({ media_type: 'audio/*', origin: 'upload' });
    expect(hasFilters(filters)).toBe(true);
    expect(hasFilters(fileListFilters({ folder: 'none' }))).toBe(false);
  });
});
