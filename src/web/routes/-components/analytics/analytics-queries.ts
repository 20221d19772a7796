import { analyticsBreakdownQueryOptions, LONG_BREAKDOWN_ROWS } from '../../../queries/analytics.ts';
import { type AnalyticsView, comparisonOf, queryOf } from './analytics-search.ts';

/*
 * The analytics page's requests of a view, apart from the page: the route's loader starts them from the
 * console's first chunk, so this module may import nothing the page draws with (the charts, the forms, the
 * contract's schemas). Imported from the page's own files instead, it put recharts, d3 and zod into every
 * signed-in first load (first-screens.test.ts checks it).
 */

/** Rows in the breakdown panel; the server sums the rest into "other". */
const BREAKDOWN_ROWS = 20;

/** The breakdown panel's request (its rows carry the comparison period's spend when there is one). */
export function breakdownQueryOptions(view: AnalyticsView) {
  return analyticsBreakdownQueryOptions(queryOf(view), view.dimension, BREAKDOWN_ROWS, comparisonOf(view));
}

/** The options of "What changed" for a view: it needs the comparison's breakdown of one dimension. */
export function whatChangedQueryOptions(view: AnalyticsView) {
  // The long breakdown, so the server's "other" (shown as one movement) stays small.
  return analyticsBreakdownQueryOptions(
    queryOf(view),
    view.changeDimension,
    LONG_BREAKDOWN_ROWS,
    comparisonOf(view),
  );
}
