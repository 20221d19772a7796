import { z } from 'zod';

/*
 * What a transcription returns, inline in outputs[0].data (whichever provider ran it), and the
 * `transcript` of a video analysis report. Times are seconds from the start of the audio.
 */

export const TranscriptWord = z.object({
  word: z.string(),
  start: z.number().min(0),
  end: z.number().min(0),
  /** The recogniser's posterior probability of the word, 0..1. */
  confidence: z.number().min(0).max(1).optional(),
});
export type TranscriptWord = z.infer<typeof TranscriptWord>;

export const TranscriptSegment = z.object({
  start: z.number().min(0),
  end: z.number().min(0),
  text: z.string(),
  words: z.array(TranscriptWord).optional(),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

export const Transcript = z
  .object({
    text: z.string(),
    language: z.string(),
    /** Length of the audio that was transcribed. */
    duration_seconds: z.number().min(0),
    segments: z.array(TranscriptSegment),
  })
  .meta({ id: 'Transcript' });
export type Transcript = z.infer<typeof Transcript>;
