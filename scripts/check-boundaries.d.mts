/** Types of check-boundaries.mjs (plain JavaScript, so that dependency-cruiser runs without tsx's interop). */
export interface Violation {
  rule: string;
  from: string;
  to: string;
}
export declare function importViolations(baseDir: string): Promise<Violation[]>;
