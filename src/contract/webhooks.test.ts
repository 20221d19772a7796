import { describe, expect, it } from 'vitest';
import { completedJob, issuesOf } from './test-fixtures.ts';
import { getWebhookSecret, rotateWebhookSecret, WebhookEvent, WebhookSecret } from './webhooks.ts';

describe('webhook event payload', () => {
  it('is { type, timestamp, data: <Job> }', () => {
    const event = { type: 'job.completed', timestamp: '2025-01-01T00:00:05Z', data: completedJob() };
    expect(issuesOf(WebhookEvent, event)).toEqual([]);
    expect(issuesOf(WebhookEvent, { ...event, type: 'job.started' })).toEqual(['type: invalid_value']);
    expect(issuesOf(WebhookEvent, { ...event, data: { id: 'job_1' } })).not.toEqual([]);
  });
});

describe('webhook secret', () => {
  it('has the form whsec_<base64> and is never cached', () => {
    const secret = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: '2025-01-01T00:00:00Z' };
    expect(issuesOf(WebhookSecret, secret)).toEqual([]);
    expect(issuesOf(WebhookSecret, { ...secret, secret: 'sk_abc' })).toEqual(['secret: invalid_format']);
    expect(getWebhookSecret.noStore).toBe(true);
    expect(rotateWebhookSecret.noStore).toBe(true);
  });
});
