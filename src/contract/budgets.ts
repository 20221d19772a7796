import { z } from 'zod';
import { BUDGET_PERIODS } from './budget-period.ts';
import { Email, HttpUrl, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/** Budgets per team (issue #31): enough for every member, folder and key a team would watch. */
export const BUDGETS_PER_TEAM_MAX = 200;
export const BUDGET_THRESHOLDS_MAX = 10;
export const BUDGET_ALERT_EMAILS_MAX = 20;
export const BUDGET_THRESHOLDS_DEFAULT = [50, 80, 100];
/** The largest budget or spend limit, in credits (1 credit = 1 cent): a billion credits. */
export const BUDGET_CREDITS_MAX = 1_000_000_000;

/** The event a budget's alert sends (by mail, to `alert_webhook_url`, and to the team's fan-out). */
export const BUDGET_ALERT_EVENT_TYPE = 'budget.threshold_reached';

export const BudgetPeriod = z.enum(BUDGET_PERIODS).meta({
  id: 'BudgetPeriod',
  description: "A calendar day, week or month in the team's time zone.",
});
export const BudgetMode = z.enum(['alert', 'cap']).meta({
  id: 'BudgetMode',
  description:
    '`alert`: only alerts are sent, jobs run past the budget. `cap`: a job that would pass it is refused with 402 `spend_limit_exceeded`.',
});
export const BudgetScopeType = z.enum(['team', 'member', 'folder', 'key']);

export const BudgetScope = z
  .object({
    type: BudgetScopeType.meta({
      description:
        '`team`: every job of the team. `member`: jobs a person started (their keys included). `folder`: jobs filed in a folder. `key`: jobs made with an API key.',
    }),
    id: z.string().min(1).max(100).meta({
      description: 'The team id, a member user id, a folder id or a key id (`key_...`).',
    }),
  })
  .meta({ id: 'BudgetScope' });

const Credits = z.int().min(1).max(BUDGET_CREDITS_MAX);

/** A key's spend limit: at most `credits` per `period` (weeks from Monday, months from the 1st). */
export const SpendLimit = z
  .object({
    credits: Credits.meta({ description: 'Credits (1 credit = 1 cent) per period.' }),
    period: BudgetPeriod,
  })
  .meta({
    id: 'SpendLimit',
    description:
      "What a key may spend per calendar period of the team's time zone; a job that would pass it answers 402 `spend_limit_exceeded`.",
  });
export type SpendLimit = z.infer<typeof SpendLimit>;

export const BudgetForecast = z
  .object({
    runs_out_at: Timestamp.nullable().meta({
      description:
        'When the budget runs out at the rate it was spent so far this period; null when it lasts to the reset.',
    }),
    credits_per_day: z.number().min(0).meta({ description: 'The rate so far this period.' }),
  })
  .meta({ id: 'BudgetForecast' });

export const Budget = z
  .object({
    id: z.string().meta({ description: 'Budget id, `bud_...`.' }),
    scope: BudgetScope,
    scope_name: z
      .string()
      .nullable()
      .meta({ description: "The scope's name for display (team, person, folder or key)." }),
    credits: Credits,
    period: BudgetPeriod,
    reset_day: z.int().min(1).max(28).meta({
      description:
        'Week: the weekday it starts (1 Monday … 7 Sunday). Month: the day of the month (1–28). Day: 1.',
    }),
    mode: BudgetMode,
    thresholds: z.array(z.int().min(1).max(100)),
    alert_emails: z.array(z.string()),
    alert_webhook_url: z.string().nullable().meta({
      description:
        'Shown to owners and managers only (a receiver URL may carry its own secret); null for others.',
    }),
    timezone: z.string().meta({ description: "The team's time zone, in which periods are counted." }),
    spent: z.int().meta({
      description: 'Spent this period: holds of running jobs plus charges, less releases and refunds.',
    }),
    remaining: z.int().min(0),
    period_start: Timestamp,
    resets_at: Timestamp,
    forecast: BudgetForecast,
    alerts_sent: z.array(z.int()).meta({ description: 'Thresholds already alerted this period.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Budget' });
export type Budget = z.infer<typeof Budget>;

const Thresholds = z
  .array(z.int().min(1).max(100))
  .max(BUDGET_THRESHOLDS_MAX)
  .refine((t) => new Set(t).size === t.length, 'must not repeat a threshold')
  .meta({
    description:
      'Percentages of `credits` at which an alert goes out, each once a period. Default 50, 80, 100.',
  });

const BudgetFields = {
  credits: Credits.meta({ description: 'Credits (1 credit = 1 cent) per period.' }),
  period: BudgetPeriod,
  reset_day: z.int().min(1).max(28).optional().meta({
    description: 'Week: 1 (Monday, the default) … 7 (Sunday). Month: 1 (the default) … 28. Not for day.',
  }),
  mode: BudgetMode,
  thresholds: Thresholds.optional(),
  alert_emails: z.array(Email).max(BUDGET_ALERT_EMAILS_MAX).optional().meta({
    description: "Who the alerts are mailed to (up to 20); omitted or empty: the team's owners and managers.",
  }),
  alert_webhook_url: HttpUrl.nullable().optional().meta({
    description:
      "Receives `budget.threshold_reached`, signed like job webhooks (Standard Webhooks, the team's secret).",
  }),
};

function resetDayProblem(body: { period?: string; reset_day?: number | undefined }, ctx: z.RefinementCtx) {
  if (body.reset_day === undefined || body.period === undefined) return;
  const max = body.period === 'week' ? 7 : body.period === 'month' ? 28 : 1;
  if (body.reset_day > max) {
    ctx.addIssue({
      code: 'custom',
      path: ['reset_day'],
      message:
        body.period === 'day'
          ? 'a daily budget has no reset day'
          : `must be 1 to ${max} for a ${body.period}ly budget`,
    });
  }
}

export const CreateBudgetRequest = z
  .object({ scope: BudgetScope, ...BudgetFields })
  .superRefine(resetDayProblem)
  .meta({ id: 'CreateBudgetRequest' });

export const UpdateBudgetRequest = z
  .object({
    credits: BudgetFields.credits.optional(),
    period: BudgetPeriod.optional(),
    reset_day: BudgetFields.reset_day,
    mode: BudgetMode.optional(),
    thresholds: BudgetFields.thresholds,
    alert_emails: BudgetFields.alert_emails,
    alert_webhook_url: BudgetFields.alert_webhook_url,
  })
  .superRefine(resetDayProblem)
  .meta({ id: 'UpdateBudgetRequest', description: 'Only the fields given change; the scope cannot.' });

/** Body of the `budget.threshold_reached` event. */
export const BudgetAlertEvent = z
  .object({
    type: z.literal(BUDGET_ALERT_EVENT_TYPE),
    timestamp: Timestamp,
    data: z.object({
      team_id: Uuid,
      budget_id: z.string(),
      scope: BudgetScope,
      threshold: z.int(),
      credits: z.int(),
      spent: z.int(),
      remaining: z.int(),
      mode: BudgetMode,
      period: BudgetPeriod,
      period_start: Timestamp,
      resets_at: Timestamp,
    }),
  })
  .meta({ id: 'BudgetAlertEvent' });
export type BudgetAlertEvent = z.infer<typeof BudgetAlertEvent>;

/** The details of a 402 `spend_limit_exceeded`. */
export const SpendLimitExceededDetails = z
  .object({
    remaining: z.int(),
    resets_at: Timestamp,
    limit: z.int(),
    period: BudgetPeriod,
    required: z.int(),
    budget_id: z
      .string()
      .nullable()
      .meta({ description: "The budget that stopped the job; null for a key's spend limit." }),
    scope: BudgetScope,
  })
  .meta({ id: 'SpendLimitExceededDetails' });

const BudgetParams = z.object({ id: z.string().min(1).max(64) });
const TeamHeaders = z.object({
  'x-team-id': Uuid.optional().meta({ description: 'Act for another team the person belongs to.' }),
});

export const TeamTimezone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone, for example Europe/Paris')
  .meta({ description: 'IANA time zone.' });

export const TeamSettings = z.object({ timezone: z.string() }).meta({ id: 'TeamSettings' });

export const listBudgets = defineEndpoint({
  operationId: 'listBudgets',
  method: 'GET',
  path: '/v2/budgets',
  host: 'api',
  tag: 'Billing',
  summary: 'List budgets',
  description:
    "The team's budgets with what each has spent this period, what remains, when it resets and when it runs out at the current rate. Every member may read them (budgets on private folders only for people who see the folder).",
  auth: 'any',
  headers: TeamHeaders,
  responses: {
    200: {
      description: 'The budgets.',
      schema: z.object({ data: z.array(Budget), timezone: z.string() }).meta({ id: 'BudgetList' }),
    },
  },
  errors: [],
});

export const createBudget = defineEndpoint({
  operationId: 'createBudget',
  method: 'POST',
  path: '/v2/budgets',
  host: 'api',
  tag: 'Billing',
  summary: 'Create a budget',
  description:
    'Owners and managers. A `cap` budget refuses a job that would pass it (402 `spend_limit_exceeded`), counted in the same transaction as the hold on the balance. Alerts go out once per threshold per period, by mail and to `alert_webhook_url`. At most 200 budgets per team.',
  auth: 'any',
  headers: TeamHeaders,
  body: CreateBudgetRequest,
  responses: { 201: { description: 'The new budget.', schema: Budget } },
  errors: ['forbidden', 'not_found', 'conflict'],
});

export const getBudget = defineEndpoint({
  operationId: 'getBudget',
  method: 'GET',
  path: '/v2/budgets/{id}',
  host: 'api',
  tag: 'Billing',
  summary: 'Get a budget',
  auth: 'any',
  headers: TeamHeaders,
  params: BudgetParams,
  responses: { 200: { description: 'The budget.', schema: Budget } },
  errors: ['not_found'],
});

export const updateBudget = defineEndpoint({
  operationId: 'updateBudget',
  method: 'PATCH',
  path: '/v2/budgets/{id}',
  host: 'api',
  tag: 'Billing',
  summary: 'Edit a budget',
  description: 'Owners and managers. Only the fields given change; the scope cannot.',
  auth: 'any',
  headers: TeamHeaders,
  params: BudgetParams,
  body: UpdateBudgetRequest,
  responses: { 200: { description: 'The budget.', schema: Budget } },
  errors: ['forbidden', 'not_found'],
});

export const deleteBudget = defineEndpoint({
  operationId: 'deleteBudget',
  method: 'DELETE',
  path: '/v2/budgets/{id}',
  host: 'api',
  tag: 'Billing',
  summary: 'Delete a budget',
  description: 'Owners and managers. Jobs stop counting against it at once.',
  auth: 'any',
  headers: TeamHeaders,
  params: BudgetParams,
  responses: { 204: { description: 'Deleted.' } },
  errors: ['forbidden', 'not_found'],
});

export const getTeamSettings = defineEndpoint({
  operationId: 'getTeamSettings',
  method: 'GET',
  path: '/v2/team/settings',
  host: 'api',
  tag: 'Account',
  summary: "The team's settings",
  description:
    "The team's time zone, in which budgets and key spend limits count their days, weeks and months.",
  auth: 'any',
  headers: TeamHeaders,
  responses: { 200: { description: 'The settings.', schema: TeamSettings } },
  errors: [],
});

export const updateTeamSettings = defineEndpoint({
  operationId: 'updateTeamSettings',
  method: 'PATCH',
  path: '/v2/team/settings',
  host: 'api',
  tag: 'Account',
  summary: "Change the team's settings",
  description: 'Owners and managers. A new time zone moves the periods of every budget from now on.',
  auth: 'any',
  headers: TeamHeaders,
  body: z.object({ timezone: TeamTimezone }).meta({ id: 'UpdateTeamSettingsRequest' }),
  responses: { 200: { description: 'The settings.', schema: TeamSettings } },
  errors: ['forbidden'],
});
