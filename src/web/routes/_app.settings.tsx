import { createFileRoute, useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { resolveBaseUrl, useServerSettings } from '../api/server-settings.ts';
import { useSession } from '../auth/session.ts';
import { PageHeader } from '../components/page-header.tsx';
import { webhookEndpointsQueryOptions } from '../queries/webhooks.ts';
import { ServerSettingsForm } from './-components/settings/server-settings-form.tsx';
import { ThemePicker } from './-components/settings/theme-picker.tsx';
import { WebhookSecretRotation } from './-components/settings/webhook-secret-rotation.tsx';
import { WebhookTestForm } from './-components/settings/webhook-test-form.tsx';
import { WebhookEndpoints } from './-components/webhooks/webhook-endpoints.tsx';

export const Route = createFileRoute('/_app/settings')({
  // The team's webhook endpoints, asked with the page's code rather than once it has drawn.
  loader: ({ context: { queryClient } }) => void queryClient.prefetchQuery(webhookEndpointsQueryOptions()),
  component: SettingsPage,
});

function SettingsSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  const id = `settings-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className="grid gap-6 border-t border-zinc-200 py-8 first-of-type:border-t-0 first-of-type:pt-0 md:grid-cols-[16rem_minmax(0,1fr)] dark:border-zinc-800"
    >
      <div>
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      </div>
      <div className="max-w-xl">{children}</div>
    </section>
  );
}

function SettingsPage() {
  const router = useRouter();
  const settings = useServerSettings();
  const session = useSession();
  const credential = settings.apiKey
    ? 'a custom API key'
    : session
      ? `your session (${session.email}, until ${new Date(session.expiresAt).toLocaleString()})`
      : 'no credentials';
  return (
    <>
      <PageHeader
        title="Settings"
        description="How the console looks, which server it talks to, and your webhooks."
      />
      <SettingsSection title="Appearance" description="Saved in this browser.">
        <ThemePicker />
      </SettingsSection>
      <SettingsSection
        title="API server"
        description="The console works with any server that follows the Media Generation API v2."
      >
        <p className="mb-5 text-sm text-zinc-700 dark:text-zinc-300">
          Talking to <span className="font-mono">{resolveBaseUrl(settings)}</span>
          {settings.baseUrl === null && ' (default)'} with {credential}.
        </p>
        <ServerSettingsForm onSaved={() => router.invalidate()} />
      </SettingsSection>
      <SettingsSection
        title="Webhooks"
        description="Check that your receiver accepts and verifies our signed events before a job calls it."
      >
        <WebhookTestForm />
      </SettingsSection>
      <SettingsSection
        title="Webhook endpoints"
        description="Receivers of the team's job events (and budget alerts), besides each job's own webhook_url. An endpoint whose deliveries keep failing is disabled, and the owners are mailed."
      >
        <WebhookEndpoints />
      </SettingsSection>
      <SettingsSection
        title="Signing secret"
        description="Rotate the secret webhooks are signed with. During the overlap both secrets sign, so receivers switch without missing one."
      >
        <WebhookSecretRotation />
      </SettingsSection>
    </>
  );
}
