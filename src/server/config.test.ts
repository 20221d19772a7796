import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8787,
      PUBLIC_URL: 'http://localhost:8787',
      SIGNUP_CREDITS: 1000,
      ALLOW_PRIVATE_NETWORK: false,
      ROLE: 'all',
      BLOCKED_DOMAINS: [],
    });
    expect(config.DATA_DIR).toBe(path.resolve('.data'));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).PUBLIC_URL).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://media.example.com/' }).PUBLIC_URL).toBe(
      'https://media.example.com',
    );
  });

  it('parses lists and flags', () => {
    const config = loadConfig({
      BLOCKED_DOMAINS: ' Evil.example , .bad.test., ',
      ALLOW_PRIVATE_NETWORK: 'true',
    });
    expect(config.BLOCKED_DOMAINS).toEqual(['evil.example', 'bad.test']);
    expect(config.ALLOW_PRIVATE_NETWORK).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK: '0' }).ALLOW_PRIVATE_NETWORK).toBe(false);
  });

  it('listens on loopback while codes go to the dev mailbox, on every interface once they are mailed, else on HOST', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '192.0.2.2', SMTP_URL: 'smtp://mail.example.com' }).HOST).toBe('192.0.2.2');
  });

  it('keeps the dev mailbox on unless DEV_MAILBOX=off', () => {
    expect(loadConfig({}).DEV_MAILBOX).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: 'off' }).DEV_MAILBOX).toBe(false);
    expect(() => loadConfig({ DEV_MAILBOX: 'maybe' })).toThrow(ConfigError);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(8787);
  });

  it('names every bad variable', () => {
    try {
      loadConfig({
        PORT: '70000',
        SIGNUP_CREDITS: '-1',
        SMTP_URL: 'http://mail',
        APP_SECRET: 'short',
        ROLE: 'boss',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const names = (error as ConfigError).lines.map((l) => l.split(':')[0]);
      expect(names.sort()).toEqual(['APP_SECRET', 'PORT', 'ROLE', 'SIGNUP_CREDITS', 'SMTP_URL']);
    }
  });

  it('reads the object storage variables, one line per bad or missing one', () => {
    const config = loadConfig({
      STORAGE_URL: 's3://media-bucket/console',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config).toMatchObject({ S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    expect(loadConfig({ STORAGE_URL: 's3://media-bucket' }).S3_ACCESS_KEY_ID).toBeUndefined();
    expect(loadConfig({ STORAGE_URL: 'file:///srv/media' }).STORAGE_URL).toBe('file:///srv/media');
    const lines = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).lines;
      }
    };
    expect(lines({ STORAGE_URL: 'https://bucket' })[0]).toMatch(
      /^STORAGE_URL: must be file:\/\/… or s3:\/\//,
    );
    expect(lines({ STORAGE_URL: 's3://Bad_Bucket' })[0]).toMatch(/^STORAGE_URL: /);
    expect(
      lines({ STORAGE_URL: 's3://bucket', S3_ENDPOINT: 'ftp://x', S3_FORCE_PATH_STYLE: 'maybe' }).map(
        (l) => l.split(':')[0],
      ),
    ).toEqual(['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE']);
    expect(lines({ STORAGE_URL: 's3://bucket', S3_ACCESS_KEY_ID: 'k' })).toEqual([
      'S3_SECRET_ACCESS_KEY: is required with S3_ACCESS_KEY_ID',
    ]);
    expect(
      lines({ S3_PUBLIC_BASE_URL: 'https://cdn.example', S3_PUBLIC_ENDPOINT: 'https://s3.example' }),
    ).toEqual([
      'S3_PUBLIC_BASE_URL: is set but STORAGE_URL is not an s3:// URL',
      'S3_PUBLIC_ENDPOINT: is set but STORAGE_URL is not an s3:// URL',
    ]);
  });
});
