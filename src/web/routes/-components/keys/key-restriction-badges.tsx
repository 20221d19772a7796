import type { ApiKey } from '../../../../contract/api-keys.ts';
import { Badge } from '../../../components/badge.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { expiresSoon } from './key-restrictions-form.ts';

/** A list shown whole when short, else counted (the full list is in the title, and in the edit form). */
function listed(what: string, values: readonly string[]): string {
  return values.length <= 2 ? `${what}: ${values.join(', ')}` : `${what}: ${values.length}`;
}

/**
 * What a key is limited to, as compact badges under its name; a key that expires within a week (or has
 * expired) is flagged in amber. Nothing for an unrestricted personal key.
 */
export function KeyRestrictionBadges({ apiKey, now = Date.now() }: { apiKey: ApiKey; now?: number }) {
  const badges: Array<{ label: string; title?: string; warn?: boolean }> = [];
  if (apiKey.service) badges.push({ label: 'Service key', title: 'Belongs to the team, not to a person' });
  if (apiKey.expires_at && !apiKey.revoked_at) {
    const expired = Date.parse(apiKey.expires_at) <= now;
    badges.push({
      label: expired ? 'Expired' : `Expires ${formatRelativeTime(apiKey.expires_at, now)}`,
      title: formatDateTime(apiKey.expires_at),
      warn: expiresSoon(apiKey, now),
    });
  }
  if (apiKey.previous_secret_expires_at && !apiKey.revoked_at) {
    badges.push({
      label: 'Old secret still valid',
      title: `Until ${formatDateTime(apiKey.previous_secret_expires_at)}`,
    });
  }
  if (apiKey.read_only) badges.push({ label: 'Read-only' });
  if (apiKey.allowed_tools) {
    badges.push({ label: listed('Tools', apiKey.allowed_tools), title: apiKey.allowed_tools.join(', ') });
  }
  if (apiKey.allowed_models) {
    badges.push({ label: listed('Models', apiKey.allowed_models), title: apiKey.allowed_models.join(', ') });
  }
  if (apiKey.allowed_ips) {
    badges.push({ label: listed('IPs', apiKey.allowed_ips), title: apiKey.allowed_ips.join(', ') });
  }
  if (apiKey.rate_limit_per_minute) badges.push({ label: `${apiKey.rate_limit_per_minute}/min` });
  if (apiKey.max_concurrent_jobs) {
    badges.push({
      label: `≤ ${apiKey.max_concurrent_jobs} at once`,
      title: `At most ${apiKey.max_concurrent_jobs} jobs queued or running`,
    });
  }
  if (apiKey.spend_limit) {
    const { credits, period } = apiKey.spend_limit;
    badges.push({
      label: `${credits.toLocaleString('en')} credits/${period}`,
      title: `Spends at most ${credits.toLocaleString('en')} credits a ${period} (the team's time zone)`,
    });
  }
  if (!badges.length) return null;
  return (
    <ul aria-label={`Restrictions of ${apiKey.name}`} className="mt-1 flex max-w-64 flex-wrap gap-1">
      {badges.map((badge) => (
        <li key={badge.label} title={badge.title}>
          <Badge tone={badge.warn ? 'warning' : 'neutral'}>{badge.label}</Badge>
        </li>
      ))}
    </ul>
  );
}
