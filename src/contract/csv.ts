/*
 * The one CSV writer: the API's `format=csv` answers (server/domain/analytics/csv.ts) and the console's
 * panel exports write their rows with it, so a cell reads the same in both. RFC 4180: CRLF line ends,
 * a field with a comma, quote or line break quoted, quotes doubled.
 */

export type CsvCell = string | number | boolean | null;

/**
 * One field. Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start: folder,
 * key and label names are chosen by people) gets a leading apostrophe; numbers are left alone.
 */
function csvField(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A header row, then the rows, each line ended by CRLF. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}
