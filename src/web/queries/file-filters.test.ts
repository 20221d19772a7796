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

  it('asks for the days a person picked, from the start of the first to the end of the last, in their timezone', () => {
    const filters = fileListFilters(FilesSearch({ from: '2026-11-01', to: '2026-11-03', q: 'fox dusk' }));
    expect(filters).toEqual({ from: '2026-11-01', to: '2026-11-03', q: 'fox dusk' });
    expect(listQueryOf(filters)).toEqual({
      q: 'fox dusk',
      created_from: new Date(2026, 10, 1).toISOString(),
      created_to: new Date(2026, 10, 4).toISOString(),
    });
    expect(hasFilters(fileListFilters(FilesSearch({ to: '2026-11-03' })))).toBe(true);
    expect(FilesSearch({ from: 'yesterday' })).toEqual({});
  });
});
