import { describe, expect, it } from 'vitest';
import { CreateFolderRequest, createFolder, Folder, FolderResponse, UpdateFolderRequest } from './folders.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const folder = {
  id: '3f1c9a52-8a53-4b4e-9d56-0f5b0b3c2a11',
  name: 'Clips',
  slug: 'clips',
  visibility: 'team',
  team_id: '0b9a7f8e-1111-4222-8333-944455556666',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  file_count: 0,
};

describe('POST /workspaces (spec 4.6)', () => {
  it('requires a name of 1 to 100 characters', () => {
    expect(issuesOf(CreateFolderRequest, {})).toEqual(['name: invalid_type']);
    expect(issuesOf(CreateFolderRequest, { name: '' })).toEqual(['name: too_small']);
    expect(issuesOf(CreateFolderRequest, { name: '   ' })).toEqual(['name: too_small']);
    expect(issuesOf(CreateFolderRequest, { name: 'a' })).toEqual([]);
    expect(issuesOf(CreateFolderRequest, { name: 'a'.repeat(100) })).toEqual([]);
    expect(issuesOf(CreateFolderRequest, { name: 'a'.repeat(101) })).toEqual(['name: too_big']);
  });

  it('answers { workspace: <Folder> } and may fail with workspace_owner_unresolvable', () => {
    expect(parseOk(FolderResponse, { workspace: folder }).workspace.slug).toBe('clips');
    expect(createFolder.errors).toContain('workspace_owner_unresolvable');
  });
});

describe('Folder (spec 2.6)', () => {
  it('has a UUID id and visibility team or private', () => {
    expect(issuesOf(Folder, folder)).toEqual([]);
    expect(issuesOf(Folder, { ...folder, visibility: 'private' })).toEqual([]);
    expect(issuesOf(Folder, { ...folder, visibility: 'public' })).toEqual(['visibility: invalid_value']);
    expect(issuesOf(Folder, { ...folder, id: 'folder_1' })).toEqual(['id: invalid_format']);
    expect(issuesOf(Folder, { ...folder, file_count: -1 })).toEqual(['file_count: too_small']);
  });
});

describe('PATCH /workspaces/{id_or_slug}', () => {
  it('renames and needs a change', () => {
    expect(issuesOf(UpdateFolderRequest, {})).toEqual(['name: custom']);
    expect(issuesOf(UpdateFolderRequest, { name: 'New' })).toEqual([]);
    expect(issuesOf(UpdateFolderRequest, { name: 'a'.repeat(101) })).toEqual(['name: too_big']);
  });
});
