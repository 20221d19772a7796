import { inputUrlChecker } from '../domain/jobs/check-input-urls.ts';
import { urlPolicyFromConfig } from '../net/url-policy.ts';
import type { Services } from '../services.ts';
import type { Route } from './define-route.ts';
import { FastPath } from './fast-path.ts';
import { accountRoutes } from './routes/account.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { auditLogRoutes } from './routes/audit-log.ts';
import { authRoutes } from './routes/auth.ts';
import { billingRoutes } from './routes/billing.ts';
import { budgetRoutes } from './routes/budgets.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { ffmpegV1Routes } from './routes/ffmpeg-v1.ts';
import { fileRoutes } from './routes/files.ts';
import { folderRoutes } from './routes/folders.ts';
import { generationRoutes } from './routes/generation.ts';
import { jobRoutes } from './routes/jobs.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { presetRoutes } from './routes/presets.ts';
import { providerWebhookRoutes } from './routes/provider-webhooks.ts';
import { runTimeRoutes } from './routes/run-times.ts';
import { teamRoutes } from './routes/team.ts';
import { templateRoutes } from './routes/templates.ts';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/**
 * Every route this server answers; the OpenAPI document lists exactly these. Routes with answers kept in
 * memory also serve them through `fastPath` (a server's; tests' in-process calls use none).
 */
export function allRoutes(s: Services, fastPath = new FastPath()): Route[] {
  const routes: Route[] = [];
  const checkUrls = inputUrlChecker(urlPolicyFromConfig(s.config), `${s.config.PUBLIC_URL}/media/`);
  routes.push(
    ...authRoutes(s),
    ...accountRoutes(s),
    ...catalogRoutes(s, fastPath),
    ...runTimeRoutes(s),
    ...generationRoutes(s, checkUrls),
    ...ffmpegV1Routes(s, checkUrls),
    ...jobRoutes(s, checkUrls, fastPath),
    ...fileRoutes(s),
    ...folderRoutes(s),
    ...apiKeyRoutes(s),
    ...oauthRoutes(s),
    ...teamRoutes(s),
    ...auditLogRoutes(s),
    ...analyticsRoutes(s),
    ...billingRoutes(s),
    ...budgetRoutes(s, checkUrls),
    ...webhookRoutes(s, checkUrls),
    ...webhookEndpointRoutes(s, checkUrls),
    ...providerWebhookRoutes(s),
    ...presetRoutes(s),
    ...templateRoutes(s, checkUrls),
    ...openApiRoutes(s, () => routes),
  );
  return routes;
}
