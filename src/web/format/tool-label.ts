import type { ToolKey } from '../../contract/common.ts';

const LABELS: Record<ToolKey, string> = {
  image: 'Image',
  video: 'Video',
  speech: 'Speech',
  music: 'Music',
  transcription: 'Transcription',
  ffmpeg: 'FFmpeg',
  render: 'Render',
  pipeline: 'Pipeline',
};

export function toolLabel(tool: ToolKey): string {
  return LABELS[tool];
}
