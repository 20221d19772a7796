/** What a media file's header says, as ffmpeg reads it. */
export interface MediaHeader {
  /** Null when the container does not say (still images, GIF). */
  durationSeconds: number | null;
  video: { codec: string; width: number; height: number; fps: number | null } | null;
  audio: { codec: string; sampleRate: number | null; channels: string | null } | null;
}

/**
 * What files need of ffmpeg (probing uploads, drawing thumbnails). Declared here and given at start-up
 * (services-factory.ts) from the local engines' ffmpeg, so domain does not import the engines.
 */
export interface MediaTools {
  /** Reads the header of a file on local disk; rejects when ffmpeg cannot read it. */
  probe(file: string, signal: AbortSignal): Promise<MediaHeader>;
  /** Runs ffmpeg with these arguments; rejects when it fails. */
  ffmpeg(args: readonly string[]): Promise<unknown>;
}
