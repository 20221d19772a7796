import { getWebhookSecret, rotateWebhookSecret } from '../../../contract/webhooks.ts';
import {
  getOrCreateWebhookSecret,
  rotateTeamWebhookSecret,
  type TeamWebhookSecret,
} from '../../domain/webhooks/secrets.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

function toWire(secret: TeamWebhookSecret) {
  return { secret: secret.secret, created_at: secret.createdAt.toISOString() };
}

/** The team's webhook signing secret: read (made on first read) and rotate. Both answer no-store. */
export function webhookRoutes(s: Services) {
  return [
    defineRoute(getWebhookSecret, async ({ auth }) =>
      toWire(await getOrCreateWebhookSecret(s.db, s.keys.encryption, auth.teamId)),
    ),

    defineRoute(rotateWebhookSecret, async ({ auth }) => {
      // Rotating breaks every receiver still verifying with the old secret: owners and managers only.
      if (auth.role !== 'owner' && auth.role !== 'manager') {
        throw new AppError(
          'forbidden',
          'Only owners and managers of the team can rotate the webhook secret.',
        );
      }
      return toWire(await rotateTeamWebhookSecret(s.db, s.keys.encryption, auth.teamId));
    }),
  ];
}
