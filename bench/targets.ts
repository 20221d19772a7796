/*
 * The performance targets of issues #14, #26 and #29 in one table at the end of `npm run bench`: each figure measured
 * in this run beside the figure the issue measured before the work, and the target. Parts not run are absent.
 */

export interface TargetRow {
  measure: string;
  before: string;
  now: string;
  target: string;
  met: boolean | null;
}

export const row = (measure: string, before: string, now: string, target: string, met: boolean | null) => ({
  measure,
  before,
  now,
  target,
  met,
});

export function targetsTable(rows: TargetRow[]): string {
  if (!rows.length) return '';
  const mark = (met: boolean | null) => (met === null ? '' : met ? 'met' : 'not met');
  const lines = [
    '',
    'targets (#14, #26, #29), measured in this run:',
    '| measure | before | now | target | |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.before} | ${r.now} | ${r.target} | ${mark(r.met)} |`),
  ];
  return `${lines.join('\n')}\n`;
}
