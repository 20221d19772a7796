import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

describe('logger', () => {
  it('writes one JSON object per line, at or above its level, with secrets redacted', () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => lines.push(line));
    log.debug('hidden');
    log.info('request', {
      path: '/v2/me',
      authorization: 'Bearer mcsk_x',
      api_key: 'mcsk_y',
      access_token: 'eyJ',
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 'info', msg: 'request', path: '/v2/me' });
    expect(lines[0]).not.toContain('mcsk_');
    expect(lines[0]).not.toContain('eyJ');
  });

  it('is quiet when silent', () => {
    const lines: string[] = [];
    createLogger('silent', (line) => lines.push(line)).error('boom');
    expect(lines).toEqual([]);
  });
});
