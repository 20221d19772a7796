import { Link } from '@tanstack/react-router';
import type { FileRecord } from '../../../../contract/files.ts';
import type { Folder } from '../../../../contract/folders.ts';
import { formatBytes } from '../../../format/bytes.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatDuration } from '../../../format/duration.ts';
import { type DetailItem, DetailSection } from '../jobs/detail-list.tsx';
import { ORIGIN_LABELS } from './file-kind.ts';

/** What the server knows of the file, in words. */
export function factsOf(file: FileRecord, folder: Folder | undefined): DetailItem[] {
  const { width, height, duration_seconds: duration, prompt, model } = file.metadata;
  return [
    // What a generated file was asked for, and of which model: the words it is found by.
    ...(prompt
      ? [{ label: 'Prompt', value: <span className="break-words whitespace-pre-line">{prompt}</span> }]
      : []),
    ...(model ? [{ label: 'Model', value: <span className="font-mono text-xs">{model}</span> }] : []),
    { label: 'Type', value: file.media_type },
    {
      label: 'Size',
      value: `${formatBytes(file.size_bytes)} (${file.size_bytes.toLocaleString('en-US')} bytes)`,
    },
    ...(width && height ? [{ label: 'Dimensions', value: `${width} × ${height} px` }] : []),
    ...(duration !== undefined ? [{ label: 'Duration', value: formatDuration(duration * 1000) }] : []),
    { label: 'Created', value: formatDateTime(file.created_at) },
    {
      label: 'Origin',
      value:
        file.origin === 'job' && file.job_id ? (
          <>
            {ORIGIN_LABELS.job} by{' '}
            <Link to="/jobs/$jobId" params={{ jobId: file.job_id }} className="font-mono text-xs underline">
              {file.job_id}
            </Link>
          </>
        ) : (
          ORIGIN_LABELS[file.origin]
        ),
    },
    { label: 'Folder', value: folder ? folder.name : file.workspace_id ? null : 'Not in a folder' },
    {
      label: 'SHA-256',
      value: file.hash ? <span className="font-mono text-xs break-all">{file.hash}</span> : null,
    },
  ];
}

export function FileFacts({ file, folder }: { file: FileRecord; folder: Folder | undefined }) {
  return <DetailSection title="Facts" items={factsOf(file, folder)} />;
}
