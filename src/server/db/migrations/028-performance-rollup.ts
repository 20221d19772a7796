import type { Migration } from '../migrate.ts';

/**
 * What one finished job adds to the performance rollup, as rows `(kind, key)` over a job row `r`
 * (a LATERAL VALUES list; rows with a NULL key are dropped): its status; for a failed job its error code;
 * for a completed job the histogram bucket of each span (performance_bucket, below). The read side
 * (domain/analytics/performance.ts) buckets the jobs it reads itself with the same list, so both agree.
 */
export const PERFORMANCE_ENTRIES = (r: string) => `(VALUES
    ('status', CASE WHEN ${r}.status IN ('completed', 'failed', 'cancelled') THEN ${r}.status END),
    ('error', CASE WHEN ${r}.status = 'failed' THEN coalesce(${r}.error->>'code', 'unknown') END),
    ('total', CASE WHEN ${r}.status = 'completed' THEN performance_bucket(${r}.completed_at - ${r}.created_at) END),
    ('queued', CASE WHEN ${r}.status = 'completed' THEN performance_bucket(${r}.started_at - ${r}.created_at) END),
    ('provider_queue', CASE WHEN ${r}.status = 'completed'
                            THEN performance_bucket(${r}.provider_started_at - ${r}.submitted_at) END),
    ('provider_run', CASE WHEN ${r}.status = 'completed'
                          THEN performance_bucket(${r}.provider_finished_at - ${r}.provider_started_at) END),
    ('downloading', CASE WHEN ${r}.status = 'completed'
                         THEN performance_bucket(${r}.completed_at - ${r}.provider_finished_at) END)
  )`;

/** The rollup's upsert over `source` (sign, then the jobs columns), its emptied rows INTO `emptied`. */
const upsert = (source: string) => `
    WITH up AS (INSERT INTO performance_rollup AS h (team_id, grain, period_start, kind, model, provider, tool, key, n)
      SELECT r.team_id, g.grain, g.start, e.kind, r.model, r.provider, r.tool, e.key, sum(r.sign)
        FROM (${source}) r
        CROSS JOIN LATERAL ${PERFORMANCE_ENTRIES('r')} e(kind, key)
        CROSS JOIN LATERAL (VALUES
          ('hour', date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00')),
          ('day', date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00')),
          ('month', date_trunc('month', r.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) g(grain, start)
       WHERE e.key IS NOT NULL AND EXISTS (SELECT 1 FROM teams t WHERE t.id = r.team_id)
       GROUP BY r.team_id, g.grain, g.start, e.kind, r.model, r.provider, r.tool, e.key
      HAVING sum(r.sign) <> 0
       ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
      ON CONFLICT ON CONSTRAINT performance_rollup_pkey DO UPDATE SET n = h.n + excluded.n
      RETURNING h.ctid, h.n)
    SELECT coalesce(array_agg(ctid) FILTER (WHERE n = 0), '{}') INTO emptied FROM up;`;

/**
 * The performance rollup (issue #33): per team, UTC hour, day and month (`grain`), model, provider and
 * tool, how many jobs finished in each status, how many failed with each error code, and a
 * histogram of each span of the completed ones (total, queued, provider_queue, provider_run, downloading)
 * in fixed log-scale buckets: bucket 0 is [0, 1) ms, bucket b ≥ 1 is [1.1^(b-1), 1.1^b) ms. Histograms
 * of fixed buckets add up, so any set of hours, days and months merges into the histogram of its jobs;
 * a percentile read from it is within 5% (+0.5 ms) of the exact one (docs/performance.md).
 *
 * Jobs count by their creation time, as in the endpoint. Three grains so that a year reads about twelve
 * months, not 8,760 hours; a row is sparse (one per bucket that holds a job), so a month of a model holds
 * a few hundred rows whatever its volume. `kind` comes right after the period in the key, so the status
 * counts alone (which decide between the exact and the histogram reading) are one short index range.
 * Source, folder and identities are not kept (each would multiply the rows): those filters read the jobs.
 *
 * Triggers keep it in step with every write of the same transaction (inserts and deletes per statement,
 * updates per row when a counted column changes), as the analytics rollups of 008/014 do; static
 * statements, planned once per connection.
 */
export const performanceRollup: Migration = {
  id: '028-performance-rollup',
  sql: `
LOCK TABLE jobs IN SHARE ROW EXCLUSIVE MODE;

-- The histogram bucket of a span; NULL when either moment is missing or a clock step made it negative.
CREATE FUNCTION performance_bucket(span interval) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN span IS NULL OR span < interval '0' THEN NULL
                    WHEN span < interval '1 millisecond' THEN '0'
                    ELSE (1 + floor(ln(extract(epoch FROM span)::float8 * 1000) / ln(1.1::float8)))::int::text
               END $$;

CREATE TABLE performance_rollup (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  grain text NOT NULL CHECK (grain IN ('hour', 'day', 'month')),
  period_start timestamptz NOT NULL,
  kind text NOT NULL,
  model text NOT NULL,
  provider text NOT NULL,
  tool text NOT NULL,
  key text NOT NULL,
  n bigint NOT NULL,
  -- n in the index: reads are index-only scans, however the rows of a period are scattered in the heap.
  CONSTRAINT performance_rollup_pkey PRIMARY KEY (team_id, grain, period_start, kind, model, provider, tool, key) INCLUDE (n)
);

CREATE FUNCTION performance_rollup_sync() RETURNS trigger LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  emptied tid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A job is created queued: nothing to count until it finishes (imports may insert finished ones).
    IF NOT EXISTS (SELECT 1 FROM performance_new_rows WHERE status IN ('completed', 'failed', 'cancelled')) THEN
      RETURN NULL;
    END IF;${upsert('SELECT 1 AS sign, * FROM performance_new_rows')}
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM performance_old_rows WHERE status IN ('completed', 'failed', 'cancelled')) THEN
      RETURN NULL;
    END IF;${upsert('SELECT -1 AS sign, * FROM performance_old_rows')}
  ELSIF TG_OP = 'UPDATE' THEN${upsert('SELECT -1 AS sign, (OLD).* UNION ALL SELECT 1, (NEW).*')}
  ELSE
    DELETE FROM performance_rollup;
  END IF;
  DELETE FROM performance_rollup WHERE ctid = ANY(emptied);
  RETURN NULL;
END $$;

-- Backfill from every existing job.
DO $$ DECLARE emptied tid[]; BEGIN${upsert('SELECT 1 AS sign, * FROM jobs')}
END $$;

CREATE TRIGGER performance_rollup_insert AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS performance_new_rows FOR EACH STATEMENT EXECUTE FUNCTION performance_rollup_sync();
CREATE TRIGGER performance_rollup_delete AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS performance_old_rows FOR EACH STATEMENT EXECUTE FUNCTION performance_rollup_sync();
CREATE TRIGGER performance_rollup_update AFTER UPDATE ON jobs FOR EACH ROW
  WHEN ((OLD.team_id, OLD.created_at, OLD.model, OLD.provider, OLD.tool, OLD.status, OLD.error->>'code',
         OLD.started_at, OLD.submitted_at, OLD.provider_started_at, OLD.provider_finished_at, OLD.completed_at)
        IS DISTINCT FROM (NEW.team_id, NEW.created_at, NEW.model, NEW.provider, NEW.tool, NEW.status,
         NEW.error->>'code', NEW.started_at, NEW.submitted_at, NEW.provider_started_at, NEW.provider_finished_at,
         NEW.completed_at)
        AND ('completed' IN (OLD.status, NEW.status) OR 'failed' IN (OLD.status, NEW.status)
             OR 'cancelled' IN (OLD.status, NEW.status)))
  EXECUTE FUNCTION performance_rollup_sync();
-- GET /v2/jobs?error_code=: the jobs with an error, by code, in the list's order (few of a team's jobs).
CREATE INDEX jobs_error_code_idx ON jobs (team_id, (error->>'code'), created_at DESC, id DESC)
  WHERE error IS NOT NULL;

CREATE TRIGGER performance_rollup_truncate AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION performance_rollup_sync();
`,
};
