import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ApiError } from '../../client/api-error.ts';
import { isFileId } from '../../contract/values.ts';
import { buttonClasses } from '../components/button.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { RouteError } from '../components/route-error.tsx';
import { fileQueryOptions, lineageQueryOptions } from '../queries/files.ts';
import { FileDetail } from './-components/files/file-detail.tsx';

/** One file on its own page (a shareable link): preview, facts, actions and lineage. */
export const Route = createFileRoute('/_app/files_/$fileId')({
  loader: ({ context: { queryClient }, params }) => {
    // A malformed id in a link is as missing as an unknown one (checked here, where this route's error view shows it).
    if (!isFileId(params.fileId)) {
      throw new ApiError({ status: 404, code: 'not_found', message: `No file ${params.fileId}.` });
    }
    void queryClient.prefetchQuery(lineageQueryOptions(params.fileId));
    return queryClient.ensureQueryData(fileQueryOptions(params.fileId));
  },
  component: FilePage,
  errorComponent: FileError,
});

function FilePage() {
  const { fileId } = Route.useParams();
  return <FileDetail key={fileId} id={fileId} />;
}

function FileError(props: ErrorComponentProps) {
  if (props.error instanceof ApiError && props.error.status === 404) {
    return (
      <EmptyState
        title="This file is not here"
        action={
          <Link to="/files" className={buttonClasses('secondary')}>
            Back to your files
          </Link>
        }
      >
        It was deleted, or it belongs to another team. Your files are listed on the Files page.
      </EmptyState>
    );
  }
  return <RouteError {...props} />;
}
