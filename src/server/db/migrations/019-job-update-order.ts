import type { Migration } from '../migrate.ts';

/**
 * A job's `updated_at` only moves forward. Writes stamp it with `now()`, the start of their transaction,
 * and a transaction that began first can commit last: a cancel that began while a progress write slipped
 * in ahead of it on the row lock came out *older* than the running state it replaced, and the console
 * (which keeps the newer of two states of a job) kept showing "Running" until a reload. A write stamped
 * with its transaction's start gets the moment it actually wrote instead, and at least a millisecond
 * (the API's precision) after the state it replaces. A deliberate value (a test ageing a row) is kept.
 */
export const jobUpdateOrder: Migration = {
  id: '019-job-update-order',
  sql: `
CREATE FUNCTION jobs_updated_at_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.updated_at = transaction_timestamp() THEN
    NEW.updated_at := greatest(clock_timestamp(), OLD.updated_at + interval '1 millisecond');
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER jobs_updated_at_forward BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_updated_at_forward();`,
};
