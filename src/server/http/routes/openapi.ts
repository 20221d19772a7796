import { stringify } from 'yaml';
import { getOpenApiJson, getOpenApiYaml } from '../../../contract/meta.ts';
import { buildOpenApi } from '../../../contract/openapi.ts';
import type { Services } from '../../services.ts';
import { defineRoute, type Route } from '../define-route.ts';
import { respond, respondJson } from '../respond.ts';

/** The document describes exactly the routes this server mounts, these two included. */
export function openApiRoutes(s: Services, mounted: () => readonly Route[]) {
  let json: Record<string, unknown> | null = null;
  let yaml: string | null = null;
  const document = () =>
    (json ??= buildOpenApi(
      mounted().map((r) => r.endpoint),
      { serverUrl: s.config.PUBLIC_URL },
    ));
  return [
    defineRoute(getOpenApiJson, async ({ c }) =>
      respondJson(c, 200, document(), { 'cache-control': 'public, max-age=300' }),
    ),
    defineRoute(getOpenApiYaml, async ({ c }) => {
      yaml ??= stringify(document());
      return respond(c, 200, yaml, {
        'content-type': 'application/yaml; charset=utf-8',
        'cache-control': 'public, max-age=300',
      });
    }),
  ];
}
