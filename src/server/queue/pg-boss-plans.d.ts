/** pg-boss's SQL texts (CommonJS, untyped): the two its workers run without awaiting them (boss.ts). */
declare module 'pg-boss/src/plans.js' {
  export function completeJobs(schema: string): string;
  export function failJobsById(schema: string): string;
}
