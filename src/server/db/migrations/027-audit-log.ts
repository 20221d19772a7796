import type { Migration } from '../migrate.ts';

/**
 * The audit log (issue #31): security and money events, append-only and tamper-evident.
 *
 * - `audit_events`: one row per event. Each team's rows form a chain: `seq` counts from 1 and `hash` is the
 *   SHA-256 of the row's fields and the previous row's hash (domain/audit/audit-hash.ts), so changing,
 *   removing or reordering a row breaks every later link.
 * - `audit_chain_heads`: a team's last `seq` and `hash`. Appends lock it (FOR UPDATE), so concurrent
 *   events of one team queue and cannot fork the chain; it also lets `audit verify` notice rows cut off
 *   the end of a chain.
 * - No foreign keys: an entry outlives the team, person or key it names (a reseeded demo team is deleted).
 * - Triggers refuse UPDATE, DELETE and TRUNCATE of entries, and DELETE and TRUNCATE of chain heads, for
 *   everyone but a superuser who disables them on purpose.
 */
export const auditLog: Migration = {
  id: '027-audit-log',
  sql: `
CREATE TABLE audit_events (
  id text PRIMARY KEY,
  team_id uuid NOT NULL,
  seq bigint NOT NULL CHECK (seq >= 1),
  occurred_at timestamptz NOT NULL,
  actor_type text NOT NULL,
  actor_person_id uuid,
  actor_api_key_id text,
  action text NOT NULL,
  target_type text,
  target_id text,
  client_address text,
  user_agent text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  prev_hash text,
  hash text NOT NULL,
  UNIQUE (team_id, seq)
);
CREATE INDEX audit_events_team_time ON audit_events (team_id, occurred_at DESC, seq DESC);
CREATE INDEX audit_events_team_action ON audit_events (team_id, action text_pattern_ops, seq DESC);
CREATE INDEX audit_events_team_person ON audit_events (team_id, actor_person_id, seq DESC) WHERE actor_person_id IS NOT NULL;
CREATE INDEX audit_events_team_key ON audit_events (team_id, actor_api_key_id, seq DESC) WHERE actor_api_key_id IS NOT NULL;
CREATE INDEX audit_events_team_target ON audit_events (team_id, target_id, seq DESC) WHERE target_id IS NOT NULL;

CREATE TABLE audit_chain_heads (
  team_id uuid PRIMARY KEY,
  seq bigint NOT NULL DEFAULT 0,
  hash text
);

CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
-- A head only moves forward, one entry at a time, onto the entry just appended after it.
CREATE FUNCTION audit_head_advance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.team_id <> OLD.team_id OR NEW.seq <> OLD.seq + 1 OR NOT EXISTS (
       SELECT 1 FROM audit_events e
        WHERE e.team_id = NEW.team_id AND e.seq = NEW.seq AND e.hash = NEW.hash
          AND e.prev_hash IS NOT DISTINCT FROM OLD.hash) THEN
    RAISE EXCEPTION 'an audit chain head only moves onto the entry appended after it'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_chain_heads_advance BEFORE UPDATE ON audit_chain_heads
  FOR EACH ROW EXECUTE FUNCTION audit_head_advance();
CREATE TRIGGER audit_chain_heads_no_delete BEFORE DELETE ON audit_chain_heads
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_chain_heads_no_truncate BEFORE TRUNCATE ON audit_chain_heads
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
`,
};
