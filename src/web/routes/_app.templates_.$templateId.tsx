import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ApiError } from '../../client/api-error.ts';
import { isTemplateId } from '../../contract/values.ts';
import { buttonClasses } from '../components/button.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { RouteError } from '../components/route-error.tsx';
import { templateQueryOptions } from '../queries/templates.ts';
import { TemplateDetail } from './-components/templates/template-detail.tsx';

/** One template on its own page: sample, variables as a form, Use and Render with the result live. */
export const Route = createFileRoute('/_app/templates_/$templateId')({
  loader: ({ context: { queryClient }, params }) => {
    // A malformed id in a link is as missing as an unknown one.
    if (!isTemplateId(params.templateId)) {
      throw new ApiError({ status: 404, code: 'not_found', message: `No template ${params.templateId}.` });
    }
    return queryClient.ensureQueryData(templateQueryOptions(params.templateId));
  },
  component: TemplateRoute,
  errorComponent: TemplateError,
});

function TemplateRoute() {
  const { templateId } = Route.useParams();
  return <TemplateDetail key={templateId} id={templateId} />;
}

function TemplateError(props: ErrorComponentProps) {
  if (props.error instanceof ApiError && props.error.status === 404) {
    return (
      <EmptyState
        title="This template is not here"
        action={
          <Link to="/templates" className={buttonClasses('secondary')}>
            Back to the templates
          </Link>
        }
      >
        It does not exist, or it belongs to another team and is not approved yet.
      </EmptyState>
    );
  }
  return <RouteError {...props} />;
}
