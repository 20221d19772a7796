import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { fileQueryOptions, lineageQueryOptions } from '../../../queries/files.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import { FileActions } from './file-actions.tsx';
import { FileFacts } from './file-facts.tsx';
import { FilePreview } from './file-preview.tsx';
import { LineageView } from './lineage-graph.tsx';
import { UseInPlayground } from './use-in-playground.tsx';

/** A file's page: the preview, its facts and actions, and its lineage. */
export function FileDetail({ id }: { id: string }) {
  const { data: file } = useSuspenseQuery(fileQueryOptions(id));
  const folders = useQuery(foldersQueryOptions());
  const folder = folders.data?.find((f) => f.id === file.workspace_id);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
        <Link to="/files" className="hover:underline">
          Files
        </Link>
        {folder && (
          <>
            {' / '}
            <Link to="/files" search={{ folder: folder.id }} className="hover:underline">
              {folder.name}
            </Link>
          </>
        )}
      </nav>
      <h1 className="mb-6 truncate text-2xl font-semibold tracking-tight text-zinc-950 dark:text-white">
        {file.name}
      </h1>
      <div className="grid grid-cols-1 items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(18rem,2fr)]">
        <FilePreview file={file} />
        <div className="flex flex-col gap-6">
          <FileActions file={file} />
          <UseInPlayground file={file} />
          <FileFacts file={file} folder={folder} />
        </div>
      </div>
      <section aria-labelledby="lineage-heading" className="mt-10">
        <h2 id="lineage-heading" className="mb-1 text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          Lineage
        </h2>
        <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
          The job that made this file, the files that went into it, and what was made from it. Open a file or
          a job to follow it; re-run a job from here in the playground.
        </p>
        <Lineage id={id} />
      </section>
    </>
  );
}

function Lineage({ id }: { id: string }) {
  const lineage = useQuery(lineageQueryOptions(id));
  if (lineage.isPending) {
    return <LoadingNote>Loading the lineage…</LoadingNote>;
  }
  if (lineage.isError) {
    return (
      <LoadFailed
        title="The lineage could not be loaded"
        error={lineage.error}
        onRetry={() => void lineage.refetch()}
      />
    );
  }
  return <LineageView graph={lineage.data} />;
}
