import type { JobStatus } from '../../contract/jobs.ts';

/*
 * Words a person reads for the API's codes: counts with their nouns (plural rules from
 * Intl.PluralRules, not `n === 1`), billing units, statuses, how a job was started. Every page uses
 * these, so a unit or a status reads the same everywhere.
 */

const plurals = new Intl.PluralRules('en-US');
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** The noun that agrees with a count shown apart from it: 1 → "model", 3 → "models". */
export function pluralNoun(count: number, one: string, other: string): string {
  return plurals.select(count) === 'one' ? one : other;
}

/** "1 image", "2 images", "1.5 seconds": the count and the noun that agrees with it. */
export function pluralize(count: number, one: string, other: string): string {
  return `${number.format(count)} ${plurals.select(count) === 'one' ? one : other}`;
}

/** Nouns of the billing units, under their price-unit names and the names `billed_units` uses. */
const UNIT_NOUNS: Record<string, readonly [string, string]> = {
  image: ['image', 'images'],
  images: ['image', 'images'],
  second: ['second', 'seconds'],
  seconds: ['second', 'seconds'],
  minute: ['minute', 'minutes'],
  minutes: ['minute', 'minutes'],
  job: ['job', 'jobs'],
  jobs: ['job', 'jobs'],
};

const THOUSAND_CHARACTERS = new Set(['thousand_characters', '1000_characters']);

/**
 * A quantity of a billing unit in words: "1 image", "3 seconds", "16 characters" (0.016 thousand
 * characters), "16 thousand characters". Units the console does not know are worded from their code
 * ("api_calls" → "2 api calls").
 */
export function formatQuantity(unit: string, count: number): string {
  if (THOUSAND_CHARACTERS.has(unit)) {
    const characters = Math.round(count * 1000);
    if (characters < 10_000) return pluralize(characters, 'character', 'characters');
    return `${number.format(Math.round(characters / 100) / 10)} thousand characters`;
  }
  const nouns = UNIT_NOUNS[unit];
  if (nouns) return pluralize(count, nouns[0], nouns[1]);
  const words = unit.replaceAll('_', ' ');
  return `${number.format(count)} ${words}`;
}

/** "per image", "per thousand characters": a job's `billing` code in words. */
export function formatBilling(billing: string): string {
  const match = /^per_(.+)$/.exec(billing);
  if (!match) return billing.replaceAll('_', ' ');
  const unit = match[1]!;
  if (unit === '1000_characters' || unit === 'thousand_characters') return 'per thousand characters';
  return `per ${unit.replaceAll('_', ' ')}`;
}

const STATUS_WORDS: Record<JobStatus | 'awaiting_confirmation' | 'unknown', string> = {
  queued: 'Queued',
  submitting: 'Submitting',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  awaiting_confirmation: 'Awaiting confirmation',
  unknown: 'Unknown',
};

/** "Queued", "Awaiting confirmation": a job status (or an analytics status) as a label. */
export function formatStatus(status: JobStatus | 'awaiting_confirmation' | 'unknown'): string {
  return STATUS_WORDS[status];
}

const SOURCE_WORDS: Record<string, string> = {
  app: 'The console',
  api: 'The API',
  mcp: 'An MCP client',
  internal: 'The server',
};

/** How a job was started, in words ("The console", "The API"). */
export function formatSource(source: string): string {
  return SOURCE_WORDS[source] ?? source;
}
