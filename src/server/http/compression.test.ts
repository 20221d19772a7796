import { describe, expect, it } from 'vitest';
import { chooseCoding, isCompressible } from './compression.ts';

describe('content coding negotiation', () => {
  it('prefers br, then gzip, by q-value', () => {
    expect(chooseCoding('gzip, deflate, br')).toBe('br');
    expect(chooseCoding('gzip')).toBe('gzip');
    expect(chooseCoding('x-gzip')).toBe('gzip');
    expect(chooseCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(chooseCoding('br;q=0.9, gzip;q=0.8')).toBe('br');
    expect(chooseCoding('GZIP; Q=1')).toBe('gzip');
  });

  it('answers identity without a header, for identity or unknown codings, and when both are q=0', () => {
    expect(chooseCoding(undefined)).toBeNull();
    expect(chooseCoding('')).toBeNull();
    expect(chooseCoding('identity')).toBeNull();
    expect(chooseCoding('deflate, zstd')).toBeNull();
    expect(chooseCoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseCoding('*;q=0')).toBeNull();
  });

  it('lets * stand for the codings not named', () => {
    expect(chooseCoding('*')).toBe('br');
    expect(chooseCoding('br;q=0, *')).toBe('gzip');
    expect(chooseCoding('gzip;q=0, *;q=0.5')).toBe('br');
  });

  it('compresses text types only, never media', () => {
    expect(isCompressible('application/json')).toBe(true);
    expect(isCompressible('application/problem+json; charset=utf-8')).toBe(true);
    expect(isCompressible('application/yaml; charset=utf-8')).toBe(true);
    expect(isCompressible('text/csv')).toBe(true);
    for (const type of ['image/png', 'image/webp', 'audio/mpeg', 'video/mp4', 'application/zip', undefined]) {
      expect(isCompressible(type), String(type)).toBe(false);
    }
  });
});
