import type { QueryClient } from '@tanstack/react-query';
import type { FileRecord } from '../../../../contract/files.ts';
import { api } from '../../../api/client.ts';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { pluralize } from '../../../format/words.ts';
import { fileKeys, filesChanged } from '../../../queries/files.ts';
import { runLimited } from '../jobs/run-limited.ts';

/* What a selection of files can have done to it at once, and the sentence that says how it went. */

/** A few requests at a time: quick for a handful, gentle on the server for hundreds. */
const PARALLEL = 4;

export interface BulkOutcome {
  /** One sentence for the status line: what was done, and what was not and why. */
  message: string;
  tone: 'success' | 'error';
}

function sentence(
  done: number,
  total: number,
  doneWords: string,
  failures: Array<{ name: string; error: unknown }>,
): BulkOutcome {
  const files = pluralize(total, 'file', 'files');
  if (!failures.length) return { message: `${doneWords.replace('{n}', files)}.`, tone: 'success' };
  const first = failures[0]!;
  const others = failures.length > 1 ? ` and ${pluralize(failures.length - 1, 'other', 'others')}` : '';
  const head = done ? `${doneWords.replace('{n}', `${done} of ${files}`)}; ` : '';
  return {
    message: `${head}${first.name}${others} could not be: ${errorMessage(first.error)}`,
    tone: 'error',
  };
}

/** Moves the files into a folder (null: out of any), each with its own request (checked as on its page). */
export async function moveFiles(
  queryClient: QueryClient,
  files: readonly FileRecord[],
  folder: { id: string; name: string } | null,
): Promise<BulkOutcome> {
  const results = await runLimited(files, PARALLEL, (file) =>
    api().updateFile({ params: { id: file.id }, body: { workspace_id: folder?.id ?? null } }),
  );
  for (const result of results)
    if (result.ok) queryClient.setQueryData(fileKeys.detail(result.value.id), result.value);
  filesChanged(queryClient);
  const failures = results.flatMap((r) => (r.ok ? [] : [{ name: r.item.name, error: r.error }]));
  const where = folder ? `into ${folder.name}` : 'out of their folders';
  return sentence(results.length - failures.length, files.length, `Moved {n} ${where}`, failures);
}

/** Deletes the files (the bytes go; lineage keeps them as deleted). */
export async function deleteFiles(
  queryClient: QueryClient,
  files: readonly FileRecord[],
): Promise<BulkOutcome> {
  const results = await runLimited(files, PARALLEL, (file) => api().deleteFile({ params: { id: file.id } }));
  for (const result of results) {
    if (result.ok) queryClient.removeQueries({ queryKey: fileKeys.detail(result.item.id), exact: true });
  }
  filesChanged(queryClient);
  void queryClient.invalidateQueries({ queryKey: fileKeys.details() });
  const failures = results.flatMap((r) => (r.ok ? [] : [{ name: r.item.name, error: r.error }]));
  return sentence(results.length - failures.length, files.length, 'Deleted {n}', failures);
}

/**
 * Asks the server for a zip of the files and starts its download: the browser's own download manager
 * streams it to disk (the server streams it from storage), so large files never sit in this page's memory.
 */
export async function downloadZip(files: readonly FileRecord[], name: string): Promise<BulkOutcome> {
  const archive = await api().createFileArchive({ body: { file_ids: files.map((f) => f.id), name } });
  const link = document.createElement('a');
  link.href = archive.url;
  link.rel = 'noopener';
  link.download = archive.name;
  document.body.append(link);
  link.click();
  link.remove();
  return {
    message: `Downloading ${archive.name}: ${pluralize(archive.file_count, 'file', 'files')}.`,
    tone: 'success',
  };
}
