import { describe, expect, it } from 'vitest';
import { storedMediaType } from './media-type-policy.ts';
import { sniffMediaType } from './sniff-media-type.ts';

const text = (value: string) => Buffer.from(value, 'utf8');

describe('sniffMediaType', () => {
  it('reads the binary formats the tools take from their magic numbers', () => {
    expect(sniffMediaType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffMediaType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(sniffMediaType(text('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffMediaType(text('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffMediaType(text('RIFF\0\0\0\0WAVEfmt '))).toBe('audio/wav');
    expect(sniffMediaType(text('\0\0\0\x1cftypavif\0\0\0\0'))).toBe('image/avif');
    expect(sniffMediaType(text('\0\0\0\x18ftypisom\0\0\0\0'))).toBe('video/mp4');
    expect(sniffMediaType(text('ID3\x04\0\0\0\0'))).toBe('audio/mpeg');
    expect(sniffMediaType(text('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('finds markup a browser would run, from its opening, whatever case or leading space', () => {
    expect(sniffMediaType(text('<!DOCTYPE html><html><script>alert(1)</script>'))).toBe('text/html');
    expect(sniffMediaType(text('\uFEFF\n  <HTML><body>'))).toBe('text/html');
    expect(sniffMediaType(text('<script>fetch("/v2/api-keys")</script>'))).toBe('text/html');
    expect(sniffMediaType(text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toBe(
      'image/svg+xml',
    );
    expect(
      sniffMediaType(
        text('<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg">'),
      ),
    ).toBe('image/svg+xml');
    expect(sniffMediaType(text('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">'))).toBe(
      'application/xhtml+xml',
    );
    expect(sniffMediaType(text('<?xml version="1.0"?><feed/>'))).toBe('application/xml');
  });

  it('calls other UTF-8 text text/plain, and anything else octet-stream', () => {
    expect(sniffMediaType(text('Notes: a <b> tag in prose is still prose.\n'))).toBe('text/plain');
    expect(sniffMediaType(text('alert(document.cookie)'))).toBe('text/plain');
    // 1 + 2 × 300 bytes: the 512-byte sample ends in the middle of an é.
    expect(sniffMediaType(text(`x${'é'.repeat(300)}`))).toBe('text/plain');
    expect(sniffMediaType(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBe('application/octet-stream');
    expect(sniffMediaType(Buffer.from([0xc3, 0x28, 0x41, 0x42]))).toBe('application/octet-stream');
    expect(sniffMediaType(Buffer.alloc(0))).toBe('application/octet-stream');
  });
});

describe('storedMediaType', () => {
  it('is what the bytes are, never what the client declared', () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    expect(storedMediaType(png, 'text/html')).toBe('image/png');
    expect(storedMediaType(text('<html><script>alert(1)</script>'), 'image/png')).toBe('text/html');
    expect(storedMediaType(text('<svg onload="alert(1)"/>'), 'image/png')).toBe('image/svg+xml');
    expect(storedMediaType(text('not really a png'), 'image/png')).toBe('text/plain');
    expect(storedMediaType(Buffer.from([0, 1, 2, 3]), 'image/png')).toBe('application/octet-stream');
  });

  it('lets the declared type name which kind of plain text a text file is, and no other', () => {
    expect(storedMediaType(text('a,b\n1,2\n'), 'text/csv')).toBe('text/csv');
    expect(storedMediaType(text('hello'), 'text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(storedMediaType(text('hello'), 'text/plain; charset=utf-7')).toBe('text/plain; charset=utf-8');
    expect(storedMediaType(text('WEBVTT\n'), 'text/vtt')).toBe('text/vtt');
    expect(storedMediaType(text('alert(1)'), 'text/javascript')).toBe('text/plain');
    expect(storedMediaType(text('hello'), 'text/html')).toBe('text/plain');
    expect(storedMediaType(text('hello'), undefined)).toBe('text/plain');
  });
});
