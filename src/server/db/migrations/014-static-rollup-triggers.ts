import type { Migration } from '../migrate.ts';
import { DIMS, SETS } from './008-analytics-rollup.ts';

/** The UTC hour of a row, whatever the session's time zone. */
const HOUR = `date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00')`;

/**
 * The run rollup's upsert (008's analytics_run_hours_sql) as a static statement over `source` (sign, then
 * the jobs columns), its emptied rows INTO `emptied`.
 */
const runHours = (source: string) => `
    WITH up AS (INSERT INTO analytics_run_hours AS h (team_id, hour, dims, tool, model, folder_id, api_key_id,
                                                      person_id, source, status, runs)
      SELECT * FROM (
        SELECT team_id, hour, ${DIMS} AS dims, tool, model, folder_id, api_key_id, person_id, src, st,
               sum(sign) AS runs
          FROM (SELECT r.*, ${HOUR} AS hour, r.source AS src, r.status AS st
                  FROM (${source}) r
                 WHERE NOT r.pipeline_step AND EXISTS (SELECT 1 FROM teams t WHERE t.id = r.team_id)) r
         GROUP BY team_id, hour, ${SETS}
      ) g
      WHERE runs <> 0
      ORDER BY team_id, dims, hour, tool, model, folder_id, api_key_id, person_id, src, st
      ON CONFLICT ON CONSTRAINT analytics_run_hours_key DO UPDATE SET runs = h.runs + excluded.runs
      RETURNING h.ctid, h.runs)
    SELECT coalesce(array_agg(ctid) FILTER (WHERE runs = 0), '{}') INTO emptied FROM up;`;

/** The charge rollup's upsert (008's analytics_charge_hours_sql), likewise. */
const chargeHours = (source: string) => `
    WITH up AS (INSERT INTO analytics_charge_hours AS h (team_id, hour, dims, tool, model, folder_id, api_key_id,
                                                         person_id, source, status, entries, spend_cents, charges,
                                                         jobs, unsuccessful_cents, unattributed_cents)
      SELECT * FROM (
        SELECT team_id, hour, ${DIMS} AS dims, tool, model, folder_id, api_key_id, person_id, src, st,
               sum(sign) AS entries, sum(-sign * delta_cents) AS spend_cents,
               coalesce(sum(sign) FILTER (WHERE delta_cents < 0), 0) AS charges,
               coalesce(sum(sign) FILTER (WHERE kind = 'settle' AND delta_cents < 0), 0) AS jobs,
               coalesce(sum(-sign * delta_cents) FILTER (WHERE job_status IN ('failed', 'cancelled')), 0)
                 AS unsuccessful_cents,
               coalesce(sum(-sign * delta_cents)
                 FILTER (WHERE job_id IS NULL AND api_key_id IS NULL AND person_id IS NULL), 0) AS unattributed_cents
          FROM (SELECT r.*, ${HOUR} AS hour, coalesce(r.source, 'unknown') AS src,
                       coalesce(r.job_status, 'unknown') AS st
                  FROM (${source}) r
                 WHERE r.kind IN ('settle', 'refund', 'adjustment')
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
    SELECT coalesce(array_agg(ctid) FILTER (WHERE entries = 0), '{}') INTO emptied FROM up;`;

/**
 * The rollup triggers of 008 ran their upserts as dynamic SQL (EXECUTE of a statement built per call), so
 * PostgreSQL planned the grouping-sets statement at every write: each time a job was created, changed
 * status (queued → running → completed) or was charged, planning cost more than the write, and it was
 * most of a job's claim. The
 * same statements, static, are planned once per connection and kept. Same rows, same order, same result
 * (rollup.test.ts holds the rollups to a rebuild from the ledger and the jobs).
 */
export const staticRollupTriggers: Migration = {
  id: '014-static-rollup-triggers',
  sql: `
CREATE OR REPLACE FUNCTION analytics_charge_hours_sync() RETURNS trigger LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  emptied tid[];
BEGIN
  -- Holds and releases (most writes) change no figure: nothing to run.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM analytics_new_rows WHERE kind IN ('settle', 'refund', 'adjustment')) THEN
      RETURN NULL;
    END IF;${chargeHours('SELECT 1 AS sign, * FROM analytics_new_rows')}
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM analytics_old_rows WHERE kind IN ('settle', 'refund', 'adjustment')) THEN
      RETURN NULL;
    END IF;${chargeHours('SELECT -1 AS sign, * FROM analytics_old_rows')}
  ELSIF TG_OP = 'UPDATE' THEN${chargeHours('SELECT -1 AS sign, (OLD).* UNION ALL SELECT 1, (NEW).*')}
  ELSE
    DELETE FROM analytics_charge_hours;
  END IF;
  DELETE FROM analytics_charge_hours WHERE ctid = ANY(emptied);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION analytics_run_hours_sync() RETURNS trigger LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  emptied tid[];
BEGIN
  -- A pipeline job that appears, goes or changes makes the jobs its keys name steps or runs again.
  IF TG_OP = 'INSERT' THEN${runHours('SELECT 1 AS sign, * FROM analytics_new_rows')}
    IF EXISTS (SELECT 1 FROM analytics_new_rows WHERE tool = 'pipeline') THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT * FROM analytics_new_rows');
    END IF;
  ELSIF TG_OP = 'DELETE' THEN${runHours('SELECT -1 AS sign, * FROM analytics_old_rows')}
    IF EXISTS (SELECT 1 FROM analytics_old_rows WHERE tool = 'pipeline') THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT * FROM analytics_old_rows');
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN${runHours('SELECT -1 AS sign, (OLD).* UNION ALL SELECT 1, (NEW).*')}
    IF 'pipeline' IN (OLD.tool, NEW.tool) THEN
      EXECUTE analytics_pipeline_steps_sql('SELECT ($1).* UNION ALL SELECT ($2).*') USING OLD, NEW;
    END IF;
  ELSE
    DELETE FROM analytics_run_hours;
  END IF;
  DELETE FROM analytics_run_hours WHERE ctid = ANY(emptied);
  RETURN NULL;
END $$;
`,
};
