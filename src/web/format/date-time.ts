const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** "Nov 22, 2026, 4:01:12 PM" in the viewer's timezone: exact, for details and tooltips. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** `YYYY-MM-DD` of a local calendar day, as `<input type="date">` reads and writes it. */
export const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a local calendar day starts (`days` later when given), as an ISO string. */
export function localDayStart(date: string, days = 0): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day + days).toISOString();
}
