import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpointDeliveries,
  listWebhookEndpoints,
  recoverWebhookEndpoint,
  redeliverWebhookEndpointDelivery,
  updateWebhookEndpoint,
} from '../../../contract/webhook-endpoints.ts';
import type { CheckUrls } from '../../domain/jobs/check-input-urls.ts';
import { listDeliveryTries } from '../../domain/webhooks/deliveries.ts';
import { recoverMissedEvents, redeliverEndpointDelivery } from '../../domain/webhooks/endpoint-recovery.ts';
import {
  assertCanManageEndpoints,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  updateEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';

/** How many of an endpoint's latest deliveries its log lists. */
const ENDPOINT_LOG_DELIVERIES = 50;

/** Team webhook endpoints (issue #33): every member reads them, owners and managers change them. */
export function webhookEndpointRoutes(s: Services, checkUrls: CheckUrls) {
  return [
    defineRoute(listWebhookEndpoints, async ({ auth }) => ({ data: await listEndpoints(s.db, auth.teamId) })),

    defineRoute(createWebhookEndpoint, async ({ auth, body }) => {
      assertCanManageEndpoints(auth.role);
      // The rules of a job's `webhook_url`: a blocked or non-public host is 403. The sender checks again
      // at every connection (a name that later resolves to a private address is refused then).
      await checkUrls([body.url], 'webhook');
      return reply(201, await createEndpoint(s.db, auth.teamId, body));
    }),

    defineRoute(getWebhookEndpoint, async ({ auth, params }) => getEndpoint(s.db, auth.teamId, params.id)),

    defineRoute(updateWebhookEndpoint, async ({ auth, params, body }) => {
      assertCanManageEndpoints(auth.role);
      if (body.url !== undefined) await checkUrls([body.url], 'webhook');
      return updateEndpoint(s.db, auth.teamId, params.id, body);
    }),

    defineRoute(deleteWebhookEndpoint, async ({ auth, params }) => {
      assertCanManageEndpoints(auth.role);
      await deleteEndpoint(s.db, auth.teamId, params.id);
      return reply(204, undefined);
    }),

    defineRoute(listWebhookEndpointDeliveries, async ({ auth, params }) => {
      const endpoint = await getEndpoint(s.db, auth.teamId, params.id);
      return {
        data: await listDeliveryTries(s.db, auth.teamId, {
          endpointId: endpoint.id,
          limit: ENDPOINT_LOG_DELIVERIES,
          viewer: auth,
        }),
      };
    }),

    defineRoute(redeliverWebhookEndpointDelivery, async ({ auth, params }) => {
      assertCanManageEndpoints(auth.role);
      return reply(202, await redeliverEndpointDelivery(s, auth.teamId, params.id, params.webhook_id));
    }),

    defineRoute(recoverWebhookEndpoint, async ({ auth, params, body }) => {
      assertCanManageEndpoints(auth.role);
      const since = body.since === undefined ? undefined : new Date(body.since);
      return reply(202, await recoverMissedEvents(s, auth.teamId, params.id, since));
    }),
  ];
}
