import { stringify } from 'yaml';
import { getOpenApiJson, getOpenApiYaml } from '../../../contract/meta.ts';
import { buildOpenApi } from '../../../contract/openapi.ts';
import type { Services } from '../../services.ts';
import { defineRoute, type Route } from '../define-route.ts';
import { FixedAnswer } from '../fixed-answer.ts';

/**
 * The document describes exactly the routes this server mounts, these two included. Both forms are
 * built, tagged and compressed once (about 300 KB of JSON): a client revalidating gets a 304.
 */
export function openApiRoutes(s: Services, mounted: () => readonly Route[]) {
  let document: Record<string, unknown> | null = null;
  let json: FixedAnswer | null = null;
  let yaml: FixedAnswer | null = null;
  const built = () =>
    (document ??= buildOpenApi(
      mounted().map((r) => r.endpoint),
      { serverUrl: s.config.PUBLIC_URL },
    ));
  const cacheControl = 'public, max-age=300';
  return [
    defineRoute(getOpenApiJson, async ({ c }) => {
      json ??= new FixedAnswer(JSON.stringify(built()), {
        'content-type': 'application/json',
        'cache-control': cacheControl,
      });
      return json.respond(c);
    }),
    defineRoute(getOpenApiYaml, async ({ c }) => {
      yaml ??= new FixedAnswer(stringify(built()), {
        'content-type': 'application/yaml; charset=utf-8',
        'cache-control': cacheControl,
      });
      return yaml.respond(c);
    }),
  ];
}
