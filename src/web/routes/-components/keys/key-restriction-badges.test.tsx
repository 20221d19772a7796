import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KeyRestrictionBadges } from './key-restriction-badges.tsx';
import { testKey } from './key-test-data.ts';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');

describe('key restriction badges', () => {
  it('shows each restriction compactly, and nothing for an unrestricted key', () => {
    const { container } = render(<KeyRestrictionBadges apiKey={testKey()} now={NOW} />);
    expect(container).toBeEmptyDOMElement();
    render(
      <KeyRestrictionBadges
        now={NOW}
        apiKey={testKey({
          name: 'Bot',
          service: true,
          read_only: true,
          allowed_tools: ['image'],
          allowed_models: ['a', 'b', 'c'],
          allowed_ips: ['203.0.113.0/24'],
          rate_limit_per_minute: 60,
          max_concurrent_jobs: 2,
          spend_limit: { credits: 1500, period: 'month' },
        })}
      />,
    );
    const list = screen.getByRole('list', { name: 'Restrictions of Bot' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Service key',
      'Read-only',
      'Tools: image',
      'Models: 3',
      'IPs: 203.0.113.0/24',
      '60/min',
      '≤ 2 at once',
      '1,500 credits/month',
    ]);
  });

  it('warns, in amber, about a key that expires within a week, and not about one that expires later', () => {
    render(
      <KeyRestrictionBadges
        now={NOW}
        apiKey={testKey({ name: 'Soon', expires_at: '2026-11-30T12:00:00.000Z' })}
      />,
    );
    const soon = within(screen.getByRole('list', { name: 'Restrictions of Soon' })).getByText(/^Expires/);
    expect(soon.className).toContain('amber');
    render(
      <KeyRestrictionBadges
        now={NOW}
        apiKey={testKey({ name: 'Later', expires_at: '2027-01-30T12:00:00.000Z' })}
      />,
    );
    const later = within(screen.getByRole('list', { name: 'Restrictions of Later' })).getByText(/^Expires/);
    expect(later.className).not.toContain('amber');
  });
});
