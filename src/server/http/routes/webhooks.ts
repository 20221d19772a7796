import { getWebhookSecret, rotateWebhookSecret, sendWebhookTestEvent } from '../../../contract/webhooks.ts';
import type { CheckUrls } from '../../domain/jobs/check-input-urls.ts';
import {
  getOrCreateWebhookSecret,
  rotateTeamWebhookSecret,
  type TeamWebhookSecret,
} from '../../domain/webhooks/secrets.ts';
import { createWebhookSender } from '../../domain/webhooks/sender.ts';
import { sendTestEvent } from '../../domain/webhooks/test-event.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

function toWire(secret: TeamWebhookSecret) {
  return { secret: secret.secret, created_at: secret.createdAt.toISOString() };
}

/**
 * The team's webhook signing secret: read (made on first read) and rotate, both no-store; and a signed
 * test event sent to a URL on demand.
 */
export function webhookRoutes(s: Services, checkUrls: CheckUrls) {
  const send = createWebhookSender(s.config);
  return [
    defineRoute(getWebhookSecret, async ({ auth }) =>
      toWire(await getOrCreateWebhookSecret(s.db, s.keys.encryption, auth.teamId)),
    ),

    defineRoute(rotateWebhookSecret, async ({ auth, query }) => {
      // Rotating breaks every receiver still verifying with the old secret: owners and managers only.
      if (auth.role !== 'owner' && auth.role !== 'manager') {
        throw new AppError(
          'forbidden',
          'Only owners and managers of the team can rotate the webhook secret.',
        );
      }
      // The overlap is bounded by the contract (at most a week), so a leaked secret cannot be kept alive.
      const rotated = await rotateTeamWebhookSecret(
        s.db,
        s.keys.encryption,
        auth.teamId,
        query.overlap_seconds,
      );
      return {
        ...toWire(rotated),
        previous_secret_expires_at: rotated.previousExpiresAt?.toISOString() ?? null,
      };
    }),

    defineRoute(sendWebhookTestEvent, async ({ auth, body }) => {
      // The rules of a job's `webhook_url`: a blocked or non-public host is 403 before anything is sent.
      await checkUrls([body.url], 'webhook');
      return sendTestEvent(s.db, s.keys.encryption, auth.teamId, body.url, send);
    }),
  ];
}
