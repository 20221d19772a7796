import { z } from 'zod';
import {
  type ApiKey,
  KEY_ALLOWED_IPS_MAX,
  KEY_ALLOWED_MODELS_MAX,
  KEY_MAX_CONCURRENT_JOBS_MAX,
  KEY_RATE_LIMIT_PER_MINUTE_MAX,
} from '../../../../contract/api-keys.ts';
import { BUDGET_PERIODS } from '../../../../contract/budget-period.ts';
import { BUDGET_CREDITS_MAX } from '../../../../contract/budgets.ts';
import { TOOL_KEYS } from '../../../../contract/common.ts';
import { isIpOrCidr } from '../../../../contract/ip-address.ts';

/*
 * The restrictions part of the create and edit forms, as the inputs hold it (text), and its conversion to
 * the request's fields (null: no restriction). The server checks again, models against its catalog.
 */

/** Entries of a list typed one per line or separated by commas. */
export function entriesOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function limitField(max: number, what: string) {
  return z
    .string()
    .trim()
    .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= max), {
      message: `${what}: a whole number from 1 to ${max.toLocaleString('en')}, or empty for no limit.`,
    });
}

export const RestrictionsSchema = z.object({
  expires_at: z.string().refine((text) => text === '' || Date.parse(text) > Date.now(), {
    message: 'Choose a time in the future, or leave it empty for a key that never expires.',
  }),
  allowed_tools: z.array(z.enum(TOOL_KEYS)),
  allowed_models: z.string().refine((text) => entriesOf(text).length <= KEY_ALLOWED_MODELS_MAX, {
    message: `At most ${KEY_ALLOWED_MODELS_MAX} models.`,
  }),
  allowed_ips: z.string().superRefine((text, ctx) => {
    const entries = entriesOf(text);
    const bad = entries.filter((entry) => !isIpOrCidr(entry));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `Not an address or CIDR: ${bad.join(', ')} (for example 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32).`,
      });
    } else if (entries.length > KEY_ALLOWED_IPS_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${KEY_ALLOWED_IPS_MAX} addresses.` });
    }
  }),
  read_only: z.boolean(),
  rate_limit_per_minute: limitField(KEY_RATE_LIMIT_PER_MINUTE_MAX, 'Requests a minute'),
  max_concurrent_jobs: limitField(KEY_MAX_CONCURRENT_JOBS_MAX, 'Jobs at once'),
  /** Credits per period (a cap budget on the key: 402 `spend_limit_exceeded` past it); empty: no limit. */
  spend_limit_credits: limitField(BUDGET_CREDITS_MAX, 'Spend limit'),
  spend_limit_period: z.enum(BUDGET_PERIODS),
});
export type RestrictionValues = z.infer<typeof RestrictionsSchema>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input shows it, in the browser's timezone. */
export function localDateTimeValue(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's values for a key (the edit), or for a new key with no restriction. */
export function restrictionDefaults(key?: ApiKey): RestrictionValues {
  return {
    expires_at: key?.expires_at ? localDateTimeValue(key.expires_at) : '',
    allowed_tools: key?.allowed_tools ?? [],
    allowed_models: key?.allowed_models?.join(', ') ?? '',
    allowed_ips: key?.allowed_ips?.join('\n') ?? '',
    read_only: key?.read_only ?? false,
    rate_limit_per_minute: key?.rate_limit_per_minute?.toString() ?? '',
    max_concurrent_jobs: key?.max_concurrent_jobs?.toString() ?? '',
    spend_limit_credits: key?.spend_limit?.credits.toString() ?? '',
    spend_limit_period: key?.spend_limit?.period ?? 'month',
  };
}

/** The request's restriction fields: every one, null where there is none (what an edit sends). */
export function restrictionBody(values: RestrictionValues) {
  const models = entriesOf(values.allowed_models);
  const ips = entriesOf(values.allowed_ips);
  return {
    expires_at: values.expires_at ? new Date(values.expires_at).toISOString() : null,
    allowed_tools: values.allowed_tools.length ? values.allowed_tools : null,
    allowed_models: models.length ? models : null,
    allowed_ips: ips.length ? ips : null,
    read_only: values.read_only,
    rate_limit_per_minute: values.rate_limit_per_minute ? Number(values.rate_limit_per_minute) : null,
    max_concurrent_jobs: values.max_concurrent_jobs ? Number(values.max_concurrent_jobs) : null,
    spend_limit: values.spend_limit_credits
      ? { credits: Number(values.spend_limit_credits), period: values.spend_limit_period }
      : null,
  };
}

/** Only the restrictions that are set (what a creation sends: the rest are the server's defaults). */
export function setRestrictions(values: RestrictionValues): Partial<ReturnType<typeof restrictionBody>> {
  return Object.fromEntries(
    Object.entries(restrictionBody(values)).filter(([, value]) => value !== null && value !== false),
  );
}

/** Days until an instant, rounded down (negative once passed). */
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.floor((Date.parse(iso) - now) / 86_400_000);
}

/** Whether a key expires within a week (the Keys page warns). */
export function expiresSoon(key: Pick<ApiKey, 'expires_at'>, now = Date.now()): boolean {
  return key.expires_at !== null && Date.parse(key.expires_at) - now < 7 * 86_400_000;
}
