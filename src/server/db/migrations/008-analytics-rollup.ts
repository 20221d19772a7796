import type { Migration } from '../migrate.ts';

/** The grouping sets kept (the query side's ROLLUP_SETS in domain/analytics/rollup.ts). */
export const SETS = `GROUPING SETS ((), (tool, model), (folder_id), (api_key_id), (person_id), (api_key_id, person_id), (src), (st))`;
/** A row's grouping set as the bitmask `dims`. */
export const DIMS = `(1 - GROUPING(tool)) + 2 * (1 - GROUPING(model)) + 4 * (1 - GROUPING(folder_id))
  + 8 * (1 - GROUPING(api_key_id)) + 16 * (1 - GROUPING(person_id)) + 32 * (1 - GROUPING(src)) + 64 * (1 - GROUPING(st))`;
/** The UTC hour of a row, whatever the session's time zone (quoted for the format() strings below). */
const HOUR = `date_bin(''1 hour'', r.created_at, timestamptz ''2000-01-01 00:00:00+00'')`;

/**
 * Hourly rollups of the ledger (charges, by posting hour) and of jobs (runs, by creation hour), so long
 * analytics ranges read hours, not every charge. A row holds the totals of one team, one UTC hour and
 * one grouping set (`dims`, a bitmask: tool 1, model 2, folder 4, api key 8, person 16, source 32,
 * status 64): the columns of the set carry values, the others are NULL. Every column at once would
 * hold about as many rows as the ledger (a busy hour rarely repeats a combination), so the sets are
 * one dimension each (tool with model, which names its tool; key and person apart and together, for
 * the creator); a query that needs columns of two sets reads the ledger.
 *
 * Triggers keep both in step with every write of the same transaction (inserts and deletes per
 * statement, updates per row when a counted column changes), so they never drift. A job is not a run
 * when it is a step of a pipeline (idempotency key `pipeline:<pipeline job id>:<step>` of the team,
 * naming a pipeline job of the team); `jobs.pipeline_step` stores that, kept by triggers on the keys
 * and on pipeline jobs, so a job's contribution always follows from its own row.
 */
export const analyticsRollup: Migration = {
  id: '008-analytics-rollup',
  sql: `
LOCK TABLE credit_ledger, jobs, idempotency_keys IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE analytics_charge_hours (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  dims smallint NOT NULL,
  tool text, model text, folder_id uuid, api_key_id text, person_id uuid, source text, status text,
  entries bigint NOT NULL,
  spend_cents bigint NOT NULL,
  charges bigint NOT NULL,
  jobs bigint NOT NULL,
  unsuccessful_cents bigint NOT NULL,
  unattributed_cents bigint NOT NULL,
  CONSTRAINT analytics_charge_hours_key
    UNIQUE NULLS NOT DISTINCT (team_id, dims, hour, tool, model, folder_id, api_key_id, person_id, source, status)
);

CREATE TABLE analytics_run_hours (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  dims smallint NOT NULL,
  tool text, model text, folder_id uuid, api_key_id text, person_id uuid, source text, status text,
  runs bigint NOT NULL,
  CONSTRAINT analytics_run_hours_key
    UNIQUE NULLS NOT DISTINCT (team_id, dims, hour, tool, model, folder_id, api_key_id, person_id, source, status)
);

-- Adds the signed rows of a source (sign, then credit_ledger's columns) to the charge rollup: one
-- statement, its rows in key order (concurrent writers lock them in the same order), hours that net
-- to nothing skipped. Rows of a team that is being deleted are skipped (its rollup goes with it).
-- Answers the rows it emptied, for the caller to delete (a breakdown lists the groups that have rows).
CREATE FUNCTION analytics_charge_hours_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT format(
    'WITH up AS (INSERT INTO analytics_charge_hours AS h (team_id, hour, dims, tool, model, folder_id, api_key_id,
                                                          person_id, source, status, entries, spend_cents, charges,
                                                          jobs, unsuccessful_cents, unattributed_cents)
     SELECT * FROM (
       SELECT team_id, hour, ${DIMS} AS dims, tool, model, folder_id, api_key_id, person_id, src, st,
              sum(sign) AS entries, sum(-sign * delta_cents) AS spend_cents,
              coalesce(sum(sign) FILTER (WHERE delta_cents < 0), 0) AS charges,
              coalesce(sum(sign) FILTER (WHERE kind = ''settle'' AND delta_cents < 0), 0) AS jobs,
              coalesce(sum(-sign * delta_cents) FILTER (WHERE job_status IN (''failed'', ''cancelled'')), 0)
                AS unsuccessful_cents,
              coalesce(sum(-sign * delta_cents)
                FILTER (WHERE job_id IS NULL AND api_key_id IS NULL AND person_id IS NULL), 0) AS unattributed_cents
         FROM (SELECT r.*, ${HOUR} AS hour, coalesce(r.source, ''unknown'') AS src,
                      coalesce(r.job_status, ''unknown'') AS st
                 FROM (%s) r
                WHERE r.kind IN (''settle'', ''refund'', ''adjustment'')
                  AND EXISTS (SELECT 1 FROM teams t WHERE t.id = r.team_id)) r
        GROUP BY team_id, hour, ${SETS}
     ) g
     WHERE (entries, spend_cents, charges, jobs, unsuccessful_cents, unattributed_cents) <> (0, 0, 0, 0, 0, 0)
     ORDER BY team_id, dims, hour, tool, model, folder_id, api_key_id, person_id, src, st
     ON CONFLICT ON CONSTRAINT analytics_charge_hours_key DO UPDATE SET
       entries = h.entries + excluded.entries, spend_cents = h.spend_cents + excluded.spend_cents,
       charges = h.charges + excluded.charges, jobs = h.jobs + excluded.jobs,
       unsuccessful_cents = h.unsuccessful_cents + excluded.unsuccessful_cents,
       unattributed_cents = h.unattributed_cents + excluded.unattributed_cents
     RETURNING h.ctid, h.entries)
     SELECT coalesce(array_agg(ctid) FILTER (WHERE entries = 0), ''{}'') FROM up',
    source) $$;

-- The same for runs: jobs that are not pipeline steps, by creation hour.
CREATE FUNCTION analytics_run_hours_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT format(
    'WITH up AS (INSERT INTO analytics_run_hours AS h (team_id, hour, dims, tool, model, folder_id, api_key_id,
                                                       person_id, source, status, runs)
     SELECT * FROM (
       SELECT team_id, hour, ${DIMS} AS dims, tool, model, folder_id, api_key_id, person_id, src, st,
              sum(sign) AS runs
         FROM (SELECT r.*, ${HOUR} AS hour, r.source AS src, r.status AS st
                 FROM (%s) r
                WHERE NOT r.pipeline_step AND EXISTS (SELECT 1 FROM teams t WHERE t.id = r.team_id)) r
        GROUP BY team_id, hour, ${SETS}
     ) g
     WHERE runs <> 0
     ORDER BY team_id, dims, hour, tool, model, folder_id, api_key_id, person_id, src, st
     ON CONFLICT ON CONSTRAINT analytics_run_hours_key DO UPDATE SET runs = h.runs + excluded.runs
     RETURNING h.ctid, h.runs)
     SELECT coalesce(array_agg(ctid) FILTER (WHERE runs = 0), ''{}'') FROM up',
    source) $$;

-- Whether a job is a step of a pipeline (the runs definition of domain/analytics/totals.ts).
CREATE FUNCTION analytics_is_pipeline_step(job text, team uuid) RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT EXISTS (SELECT 1 FROM idempotency_keys k
                        WHERE k.job_id = job AND k.key LIKE 'pipeline:%' AND k.team_id = team
                          AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2)
                                         AND p.team_id = k.team_id AND p.tool = 'pipeline')) $$;

-- Finds the steps of a pipeline job (the keys naming it) when it appears, goes or changes.
CREATE INDEX idempotency_keys_pipeline_idx ON idempotency_keys (team_id, split_part(key, ':', 2))
  WHERE key LIKE 'pipeline:%';

-- Re-reads pipeline_step of the jobs that the pipeline jobs among a source's rows name as steps.
CREATE FUNCTION analytics_pipeline_steps_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT format(
    'UPDATE jobs j SET pipeline_step = NOT j.pipeline_step
       FROM (SELECT DISTINCT r.team_id, r.id FROM (%s) r WHERE r.tool = ''pipeline'') p
       JOIN idempotency_keys k ON k.team_id = p.team_id AND k.key LIKE ''pipeline:%%''
                              AND split_part(k.key, '':'', 2) = p.id
      WHERE j.id = k.job_id AND j.pipeline_step IS DISTINCT FROM analytics_is_pipeline_step(j.id, j.team_id)',
    source) $$;

CREATE FUNCTION analytics_charge_hours_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied tid[];
BEGIN
  -- Holds and releases (most writes) change no figure: nothing to plan.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM analytics_new_rows WHERE kind IN ('settle', 'refund', 'adjustment')) THEN
      RETURN NULL;
    END IF;
    EXECUTE analytics_charge_hours_sql('SELECT 1 AS sign, * FROM analytics_new_rows') INTO emptied;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM analytics_old_rows WHERE kind IN ('settle', 'refund', 'adjustment')) THEN
      RETURN NULL;
    END IF;
    EXECUTE analytics_charge_hours_sql('SELECT -1 AS sign, * FROM analytics_old_rows') INTO emptied;
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE analytics_charge_hours_sql('SELECT -1 AS sign, ($1).* UNION ALL SELECT 1, ($2).*') INTO emptied
      USING OLD, NEW;
  ELSE
    DELETE FROM analytics_charge_hours;
  END IF;
  DELETE FROM analytics_charge_hours WHERE ctid = ANY(emptied);
  RETURN NULL;
END $$;

CREATE FUNCTION analytics_run_hours_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied tid[];
BEGIN
  -- A pipeline job that appears, goes or changes makes the jobs its keys name steps or runs again.
  IF TG_OP = 'INSERT' THEN
    EXECUTE analytics_run_hours_sql('SELECT 1 AS sign, * FROM analytics_new_rows') INTO emptied;
    IF EXISTS (SELECT 1 FROM analytics_new_rows WHERE tool = 'pipeline') THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT * FROM analytics_new_rows');
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE analytics_run_hours_sql('SELECT -1 AS sign, * FROM analytics_old_rows') INTO emptied;
    IF EXISTS (SELECT 1 FROM analytics_old_rows WHERE tool = 'pipeline') THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT * FROM analytics_old_rows');
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE analytics_run_hours_sql('SELECT -1 AS sign, ($1).* UNION ALL SELECT 1, ($2).*') INTO emptied
      USING OLD, NEW;
    IF 'pipeline' IN (OLD.tool, NEW.tool) THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT ($1).* UNION ALL SELECT ($2).*') USING OLD, NEW;
    END IF;
  ELSE
    DELETE FROM analytics_run_hours;
  END IF;
  DELETE FROM analytics_run_hours WHERE ctid = ANY(emptied);
  RETURN NULL;
END $$;

-- A job that moves to another id or team is a step there or not.
CREATE FUNCTION analytics_pipeline_step_reread() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.pipeline_step := analytics_is_pipeline_step(NEW.id, NEW.team_id);
  RETURN NEW;
END $$;

-- A pipeline key that appears, changes or goes can make its job a step or a run again.
CREATE FUNCTION analytics_pipeline_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.key LIKE 'pipeline:%' AND OLD.job_id IS NOT NULL THEN ids := ids || OLD.job_id; END IF;
  IF TG_OP <> 'DELETE' AND NEW.key LIKE 'pipeline:%' AND NEW.job_id IS NOT NULL THEN ids := ids || NEW.job_id; END IF;
  IF cardinality(ids) > 0 THEN
    UPDATE jobs j SET pipeline_step = NOT j.pipeline_step
     WHERE j.id = ANY(ids) AND j.pipeline_step IS DISTINCT FROM analytics_is_pipeline_step(j.id, j.team_id);
  END IF;
  RETURN NULL;
END $$;

-- Backfill: which jobs are steps, then both rollups from every existing row.
ALTER TABLE jobs ADD COLUMN pipeline_step boolean NOT NULL DEFAULT false;
UPDATE jobs j SET pipeline_step = true
  FROM idempotency_keys k
 WHERE k.job_id = j.id AND k.key LIKE 'pipeline:%' AND k.team_id = j.team_id
   AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2) AND p.team_id = k.team_id
                  AND p.tool = 'pipeline');
DO $$ BEGIN
  EXECUTE analytics_charge_hours_sql('SELECT 1 AS sign, * FROM credit_ledger');
  EXECUTE analytics_run_hours_sql('SELECT 1 AS sign, * FROM jobs');
END $$;

CREATE TRIGGER analytics_charge_hours_insert AFTER INSERT ON credit_ledger
  REFERENCING NEW TABLE AS analytics_new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_charge_hours_sync();
CREATE TRIGGER analytics_charge_hours_delete AFTER DELETE ON credit_ledger
  REFERENCING OLD TABLE AS analytics_old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_charge_hours_sync();
CREATE TRIGGER analytics_charge_hours_update AFTER UPDATE ON credit_ledger FOR EACH ROW
  WHEN ((OLD.team_id, OLD.created_at, OLD.kind, OLD.delta_cents, OLD.tool, OLD.model, OLD.folder_id, OLD.api_key_id,
         OLD.person_id, OLD.source, OLD.job_id, OLD.job_status)
        IS DISTINCT FROM (NEW.team_id, NEW.created_at, NEW.kind, NEW.delta_cents, NEW.tool, NEW.model, NEW.folder_id,
         NEW.api_key_id, NEW.person_id, NEW.source, NEW.job_id, NEW.job_status))
  EXECUTE FUNCTION analytics_charge_hours_sync();
CREATE TRIGGER analytics_charge_hours_truncate AFTER TRUNCATE ON credit_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_charge_hours_sync();

CREATE TRIGGER analytics_run_hours_insert AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS analytics_new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_run_hours_sync();
CREATE TRIGGER analytics_run_hours_delete AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS analytics_old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_run_hours_sync();
CREATE TRIGGER analytics_run_hours_update AFTER UPDATE ON jobs FOR EACH ROW
  WHEN ((OLD.id, OLD.team_id, OLD.created_at, OLD.tool, OLD.model, OLD.folder_id, OLD.api_key_id, OLD.person_id,
         OLD.source, OLD.status, OLD.pipeline_step)
        IS DISTINCT FROM (NEW.id, NEW.team_id, NEW.created_at, NEW.tool, NEW.model, NEW.folder_id, NEW.api_key_id,
         NEW.person_id, NEW.source, NEW.status, NEW.pipeline_step))
  EXECUTE FUNCTION analytics_run_hours_sync();
CREATE TRIGGER analytics_run_hours_truncate AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_run_hours_sync();
CREATE TRIGGER analytics_pipeline_step_reread BEFORE UPDATE OF id, team_id ON jobs
  FOR EACH ROW EXECUTE FUNCTION analytics_pipeline_step_reread();
CREATE TRIGGER analytics_pipeline_key_sync AFTER INSERT OR UPDATE OR DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION analytics_pipeline_key_sync();
`,
};
