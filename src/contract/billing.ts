import { z } from 'zod';
import {
  Cents,
  commaList,
  commaListOrNone,
  PageQuery,
  pageOf,
  SignedCents,
  Timestamp,
  ToolKey,
  Uuid,
} from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { JobId, KeyId, RunSource } from './jobs.ts';
import { LEDGER_KINDS } from './values.ts';

/**
 * Kinds of ledger entries (ours). A job first places a `hold` (negative) for its estimate; when it ends the
 * hold is `release`d in full, and a completed job's actual cost is then charged as a `settle` (negative;
 * 0 for a cached answer). `grant` adds credits (sign-up, operator command), `refund` gives back a
 * settled charge, `adjustment` is an operator correction of either sign.
 */
export { LEDGER_KINDS };
export const LedgerKind = z.enum(LEDGER_KINDS).meta({ id: 'LedgerKind' });
export type LedgerKind = z.infer<typeof LedgerKind>;

/** Ledger entry ids (ours): `led_` followed by opaque characters. */
export const LedgerEntryId = z
  .string()
  .regex(/^led_[A-Za-z0-9_-]+$/, { message: 'must be a ledger entry id (led_...)' });

export const LedgerEntry = z
  .object({
    id: LedgerEntryId,
    team_id: Uuid,
    delta_cents: SignedCents.meta({ description: 'Signed change of the balance, in credits.' }),
    kind: LedgerKind,
    balance_after_cents: SignedCents.meta({ description: 'The balance right after this entry.' }),
    job_id: z.string().nullable(),
    tool: ToolKey.nullable(),
    model: z.string().nullable(),
    folder_id: z.string().nullable(),
    api_key_id: z.string().nullable(),
    person_id: z.string().nullable(),
    source: RunSource,
    note: z.string().nullable().meta({ description: 'Why: the note of a grant, a refund or an adjustment.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/**
 * How credits are added to the team on this server (ours): only by its owners, through the operator's
 * top-up page when one is configured, else by asking the operator, who runs `command` on the server.
 */
export const TopUp = z
  .object({
    url: z.url().nullable().meta({
      description:
        "The operator's top-up page for this team (CREDITS_TOP_UP_URL), or null when there is none.",
    }),
    command: z.string().meta({
      description:
        'The command the operator runs on the server to add credits to this team, `<credits>` left to fill in.',
    }),
  })
  .meta({ id: 'TopUp' });
export type TopUp = z.infer<typeof TopUp>;

export const Balance = z
  .object({
    team_id: Uuid,
    balance_cents: Cents.meta({ description: 'Credits available for new jobs (holds already deducted).' }),
    held_cents: Cents.meta({ description: 'Credits held by unfinished jobs.' }),
    as_of: Timestamp,
    top_up: TopUp,
  })
  .meta({ id: 'Balance' });
export type Balance = z.infer<typeof Balance>;

export const LedgerListQuery = PageQuery.extend({
  kind: commaList(LedgerKind).optional(),
  job: JobId.optional().meta({ description: 'Entries of this job.' }),
  tool: commaList(ToolKey).optional(),
  model: commaList(z.string().min(1).max(200)).optional(),
  folder: commaListOrNone(z.uuid({ message: 'must be a folder id' })).optional(),
  api_key: commaListOrNone(KeyId).optional(),
  member: commaListOrNone(Uuid).optional(),
  source: commaList(RunSource).optional(),
  created_from: Timestamp.optional().meta({ description: 'At or after this instant.' }),
  created_to: Timestamp.optional().meta({ description: 'Before this instant (exclusive).' }),
});

export const getBalance = defineEndpoint({
  operationId: 'getBalance',
  method: 'GET',
  path: '/v2/billing/balance',
  host: 'api',
  tag: 'Billing',
  summary: 'Balance',
  description: 'The balance of the team the call acts for. Credits are granted by an operator command.',
  auth: 'any',
  responses: { 200: { description: 'The balance.', schema: Balance } },
  errors: [],
});

export const listLedgerEntries = defineEndpoint({
  operationId: 'listLedgerEntries',
  method: 'GET',
  path: '/v2/billing/ledger',
  host: 'api',
  tag: 'Billing',
  summary: 'Ledger entries',
  description: 'Every change of the balance, newest first, with filters.',
  auth: 'any',
  query: LedgerListQuery,
  responses: {
    200: { description: 'A page of entries.', schema: pageOf(LedgerEntry).meta({ id: 'LedgerPage' }) },
  },
  errors: [],
});
