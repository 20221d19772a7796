import { describeIssues } from '../../../contract/errors.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import {
  getTemplate,
  listTemplates,
  listTemplateTags,
  publishTemplate,
  renderTemplate,
  reviewTemplate,
  TemplateId,
  useTemplate,
} from '../../../contract/templates.ts';
import { transaction } from '../../db/pool.ts';
import { findPerson } from '../../domain/identity/accounts.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { createJob } from '../../domain/jobs/create-job.ts';
import { bucketName, hit } from '../../domain/rate-limit.ts';
import { fillRequest, standInValues, variableValues } from '../../domain/templates/fill-template.ts';
import * as store from '../../domain/templates/template-store.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { auditOrigin } from '../audit-request.ts';
import { defineRoute, reply } from '../define-route.ts';
import { limitJobCreation } from './generation.ts';

/** Publishing per person (or key): enough for real work, not for flooding the review queue. */
export const TEMPLATE_PUBLISH_LIMIT = {
  label: 'templates published',
  limit: 20,
  windowSeconds: 3600,
} as const;

export function templateRoutes(s: Services, checkUrls: (urls: string[]) => Promise<void>) {
  // The shipped starters are written once per process, before the first template request is answered.
  let starters: Promise<void> | null = null;
  const ready = () => {
    starters ??= store.ensureStarterTemplates(s.db).catch((error: unknown) => {
      starters = null;
      throw error;
    });
    return starters;
  };

  async function isOperator(auth: AuthContext): Promise<boolean> {
    if (!auth.personId || s.config.ADMIN_EMAILS.length === 0) return false;
    const person = await findPerson(s.db, auth.personId);
    return person !== null && s.config.ADMIN_EMAILS.includes(person.email.toLowerCase());
  }

  return [
    defineRoute(listTemplateTags, async () => {
      await ready();
      return { data: await store.templateTags(s.db) };
    }),

    defineRoute(listTemplates, async ({ auth, query }) => {
      await ready();
      return store.listTemplates(s.db, auth.teamId, query);
    }),

    defineRoute(getTemplate, async ({ auth, params }) => {
      await ready();
      return store.getVisibleTemplate(s.db, auth.teamId, params.id);
    }),

    defineRoute(useTemplate, async ({ auth, params }) => {
      // Spec 4.8: a malformed id is a 400 on this route (elsewhere path validation answers 422).
      if (!TemplateId.safeParse(params.id).success) {
        throw new AppError(
          'invalid_request',
          `"${params.id.slice(0, 140)}" is not a template id (tpl_...).`,
          {
            details: {
              fields: [
                { field: 'path.id', message: 'must be a template id (tpl_...)', code: 'invalid_format' },
              ],
            },
          },
        );
      }
      await ready();
      return { success: true, useCount: await store.countUse(s.db, auth.teamId, params.id) };
    }),

    defineRoute(publishTemplate, async ({ auth, body }) => {
      // A request its tool refuses even with the defaults filled in could never render: refused now, not at render.
      const sample = fillRequest(body.request, standInValues(body.variables));
      const parsed = TOOL_REQUEST_BODIES[body.tool].safeParse(sample);
      if (!parsed.success) {
        const { message, fields } = describeIssues(parsed.error.issues, 'request');
        throw new AppError('invalid_request', `The request is not a valid ${body.tool} request: ${message}`, {
          status: 422,
          details: { fields },
        });
      }
      await hit(
        s.db,
        bucketName('template-publish', auth.personId ?? auth.apiKeyId ?? auth.teamId),
        TEMPLATE_PUBLISH_LIMIT,
      );
      return reply(
        201,
        await store.publishTemplate(s.db, { teamId: auth.teamId, personId: auth.personId }, body),
      );
    }),

    defineRoute(reviewTemplate, async ({ auth, params, body, c }) => {
      // Not an operator: the route answers as if the template did not exist (no hint that it is guarded).
      if (!(await isOperator(auth))) throw new AppError('not_found', `No template ${params.id}.`);
      const origin = auditOrigin(c, auth, s.config.TRUST_PROXY);
      return transaction(s.db, (tx) => store.reviewTemplate(tx, params.id, body.decision, origin));
    }),

    defineRoute(renderTemplate, async ({ auth, params, body, headers }) => {
      await ready();
      const template = await store.getVisibleTemplate(s.db, auth.teamId, params.id);
      const values = variableValues(template.variables, body.variables);
      const filled = fillRequest(template.request, values) as Record<string, unknown>;
      if (body.options) filled.options = body.options;
      // The filled request is validated as the tool's own route would, so a bad value names its field.
      const parsed = TOOL_REQUEST_BODIES[template.tool].safeParse(filled);
      if (!parsed.success) {
        const { message, fields } = describeIssues(parsed.error.issues, 'request');
        throw new AppError(
          'invalid_request',
          `The filled template is not a valid ${template.tool} request: ${message}`,
          {
            status: 422,
            details: { fields },
          },
        );
      }
      const limitHeaders = await limitJobCreation(s, auth);
      const { job, replay } = await createJob(
        s,
        auth,
        {
          tool: template.tool,
          body: parsed.data as Record<string, unknown>,
          idempotencyKey: headers?.['idempotency-key'],
          workspace: headers?.['x-workspace-id'],
        },
        checkUrls,
      );
      // A replay is the same render: it was counted the first time.
      if (!replay) await store.countUse(s.db, auth.teamId, template.id);
      return reply(replay ? 200 : 202, job, limitHeaders);
    }),
  ];
}
