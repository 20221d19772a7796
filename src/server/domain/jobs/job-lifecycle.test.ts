import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, TERMINAL_JOB_STATUSES } from '../../../contract/jobs.ts';
import { canMove, JOB_MOVES, statusIn } from './job-lifecycle.ts';

const ACTIVE = JOB_STATUSES.filter((status) => !TERMINAL_JOB_STATUSES.includes(status as never));

describe("a job's transition table", () => {
  it('refuses every move out of a final status: a completed job never runs again', () => {
    expect(canMove('completed', 'running')).toBe(false);
    for (const from of TERMINAL_JOB_STATUSES) {
      for (const to of JOB_STATUSES) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
    }
  });

  it('lets every unfinished job end each way, and nothing go back to queued', () => {
    for (const from of ACTIVE) {
      for (const to of TERMINAL_JOB_STATUSES) expect(canMove(from, to), `${from} → ${to}`).toBe(true);
      expect(canMove(from, 'queued'), `${from} → queued`).toBe(false);
    }
  });

  it('starts a job only from queued or submitting, or when a new run takes over one whose run is gone', () => {
    expect(canMove('queued', 'running')).toBe(true);
    expect(canMove('submitting', 'running')).toBe(true);
    expect(JOB_MOVES.start.from).toEqual(['submitting']);
    expect(JOB_MOVES.takeOver.from).toEqual(['submitting', 'running']);
    expect(JOB_MOVES.claim.from).toEqual(['queued']);
  });

  it("speaks only the contract's statuses, and names what each move writes", () => {
    for (const [name, move] of Object.entries(JOB_MOVES)) {
      for (const status of [...move.from, ...move.to]) expect(JOB_STATUSES, name).toContain(status);
      expect(move.writes.length, name).toBeGreaterThan(0);
    }
  });

  it('guards a statement with the statuses of a move', () => {
    expect(statusIn(JOB_MOVES.complete.from)).toBe("status IN ('queued', 'submitting', 'running')");
  });
});
