/** The pg-boss queue that runs jobs (one message per job; crashed runs come back after the lease). */
export const RUN_JOB_QUEUE = 'job-run';
