import { describe, expect, it } from 'vitest';
import { formatBilling, formatQuantity, formatSource, formatStatus, pluralize } from './words.ts';

describe('words for people', () => {
  it('makes the noun agree with the count', () => {
    expect(pluralize(1, 'image', 'images')).toBe('1 image');
    expect(pluralize(0, 'image', 'images')).toBe('0 images');
    expect(pluralize(2, 'input', 'inputs')).toBe('2 inputs');
    expect(pluralize(1.5, 'second', 'seconds')).toBe('1.5 seconds');
    expect(pluralize(1200, 'job', 'jobs')).toBe('1,200 jobs');
  });

  it('words billing quantities under either unit name', () => {
    expect(formatQuantity('images', 1)).toBe('1 image');
    expect(formatQuantity('image', 4)).toBe('4 images');
    expect(formatQuantity('seconds', 5)).toBe('5 seconds');
    expect(formatQuantity('thousand_characters', 0.016)).toBe('16 characters');
    expect(formatQuantity('thousand_characters', 0.001)).toBe('1 character');
    expect(formatQuantity('thousand_characters', 16)).toBe('16 thousand characters');
    expect(formatQuantity('api_calls', 2)).toBe('2 api calls');
  });

  it('words billing codes, statuses and sources', () => {
    expect(formatBilling('per_1000_characters')).toBe('per thousand characters');
    expect(formatBilling('per_image')).toBe('per image');
    expect(formatStatus('awaiting_confirmation')).toBe('Awaiting confirmation');
    expect(formatStatus('running')).toBe('Running');
    expect(formatSource('api')).toBe('The API');
  });
});
