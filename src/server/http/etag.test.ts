import { describe, expect, it } from 'vitest';
import { entityTag, noneMatchHits } from './etag.ts';

describe('If-None-Match', () => {
  const tag = entityTag('{"data":[]}');

  it('makes a quoted strong tag that follows the bytes', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag('{"data":[]}')).toBe(tag);
    expect(entityTag('{"data":[1]}')).not.toBe(tag);
  });

  it('matches the same tag, in a list, and by weak comparison either way', () => {
    expect(noneMatchHits(tag, [tag])).toBe(true);
    expect(noneMatchHits(`"other", ${tag}`, [tag])).toBe(true);
    expect(noneMatchHits(`W/${tag}`, [tag])).toBe(true);
    expect(noneMatchHits(tag, [`W/${tag}`])).toBe(true);
  });

  it('matches * whenever the resource exists', () => {
    expect(noneMatchHits('*', [tag])).toBe(true);
  });

  it('does not match another tag, an unquoted one, or no header', () => {
    expect(noneMatchHits('"other"', [tag])).toBe(false);
    expect(noneMatchHits(tag.slice(1, -1), [tag])).toBe(false);
    expect(noneMatchHits(undefined, [tag])).toBe(false);
    expect(noneMatchHits('', [tag])).toBe(false);
  });
});
