/*
 * Which viewer an inline output (`outputs[].data`, no file) needs. Kept apart from the viewers, which load
 * on first use: a playground visit that shows an image need not download the report and transcript code.
 */

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Is this output's data a video analysis report? */
export function isAnalysisReport(data: unknown): boolean {
  return isObj(data) && typeof data.summary === 'string' && 'suspicious_instructions' in data;
}

/** Is this output's data a transcript (`{ text, segments: [{ start, end, text }] }`)? */
export function isTranscript(data: unknown): boolean {
  return isObj(data) && typeof data.text === 'string' && Array.isArray(data.segments);
}
