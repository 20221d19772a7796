import type { Migration } from '../migrate.ts';

/**
 * Budgets and key spend limits (issue #31). A budget limits what a team, a member, a folder or a key
 * spends in a calendar period of the team's time zone (`teams.timezone`). A key's `spend_limit` is a
 * budget row too (`key_limit`, hidden from /v2/budgets), so a job's creation checks every limit with one
 * query and locks them the same way: `SELECT ... FOR UPDATE` on the cap rows, in id order.
 *
 * What a budget has spent is not stored: it is read from the ledger (holds, settles, releases and refunds
 * of the jobs whose hold fell in the period), under the budget row's lock, so it is exact and a refund
 * gives its share back without a second counter to keep in step.
 *
 * `budget_alerts` holds one row per threshold crossed per period: its key makes each alert go out once,
 * however many job creations see the crossing at the same time.
 */
export const budgets: Migration = {
  id: '026-budgets',
  sql: `
ALTER TABLE teams ADD COLUMN timezone text NOT NULL DEFAULT 'UTC';

CREATE TABLE budgets (
  id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  scope_type text NOT NULL CHECK (scope_type IN ('team', 'member', 'folder', 'key')),
  scope_id text NOT NULL,
  credits bigint NOT NULL CHECK (credits > 0),
  period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  reset_day int NOT NULL DEFAULT 1 CHECK (reset_day BETWEEN 1 AND 28),
  mode text NOT NULL CHECK (mode IN ('alert', 'cap')),
  thresholds int[] NOT NULL DEFAULT '{50,80,100}',
  alert_emails text[] NOT NULL DEFAULT '{}',
  alert_webhook_url text,
  key_limit boolean NOT NULL DEFAULT false CHECK (NOT key_limit OR (scope_type = 'key' AND mode = 'cap')),
  created_by uuid REFERENCES persons(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX budgets_team_idx ON budgets (team_id, mode);
-- A key has at most one spend limit.
CREATE UNIQUE INDEX budgets_key_limit_idx ON budgets (scope_id) WHERE key_limit;

CREATE TABLE budget_alerts (
  budget_id text NOT NULL REFERENCES budgets(id) ON DELETE CASCADE,
  period_start timestamptz NOT NULL,
  threshold int NOT NULL,
  spent bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (budget_id, period_start, threshold)
);
`,
};
