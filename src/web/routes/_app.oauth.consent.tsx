import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { OAuthClientView } from '../../contract/oauth.ts';
import { Alert } from '../components/alert.tsx';
import { Button } from '../components/button.tsx';
import { LoadingNote } from '../components/loading-note.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { meQueryOptions } from '../queries/me.ts';
import { oauthClientQueryOptions, useDecideConsent } from '../queries/oauth.ts';
import { searchParams, text } from '../search-params/fields.ts';

/** The authorization request, as `GET /oauth/authorize` handed it over (checked again by the server). */
const ConsentSearch = searchParams({
  client_id: text({ min: 1, max: 100 }),
  redirect_uri: text({ min: 1, max: 2000 }),
  code_challenge: text({ pattern: /^[A-Za-z0-9._~-]{43,128}$/ }),
  code_challenge_method: text({ pattern: /^S256$/ }),
  state: text({ max: 2000 }),
  resource: text({ max: 2000 }),
  team: text(),
});

/**
 * Where a person connects an AI application (an MCP client) to their account: who asks, what it may do,
 * for which team. Signed-out visitors sign in with their emailed code first and come back here.
 */
export const Route = createFileRoute('/_app/oauth/consent')({
  validateSearch: ConsentSearch,
  component: ConsentPage,
});

function ConsentPage() {
  const search = Route.useSearch();
  const { client_id, redirect_uri, code_challenge, code_challenge_method } = search;
  if (!client_id || !redirect_uri || !code_challenge || code_challenge_method !== 'S256') {
    return (
      <>
        <PageHeader title="Connect an application" />
        <Alert tone="error" title="This link is incomplete">
          Start again from the application you want to connect: it opens this page with what it asks for.
        </Alert>
      </>
    );
  }
  return (
    <Consent clientId={client_id} redirectUri={redirect_uri} challenge={code_challenge} search={search} />
  );
}

function Consent({
  clientId,
  redirectUri,
  challenge,
  search,
}: {
  clientId: string;
  redirectUri: string;
  challenge: string;
  search: { state?: string; resource?: string; team?: string };
}) {
  const client = useQuery(oauthClientQueryOptions(clientId));
  if (client.isPending) return <LoadingNote>Looking up the application…</LoadingNote>;
  if (client.isError) {
    return (
      <>
        <PageHeader title="Connect an application" />
        <Alert tone="error" title="This application is not registered here">
          {client.error.message} Start again from the application.
        </Alert>
      </>
    );
  }
  if (!client.data.redirect_uris.includes(redirectUri)) {
    return (
      <>
        <PageHeader title="Connect an application" />
        <Alert tone="error" title="This request does not come from the application it names">
          It asks to send you back to an address the application did not register. Nothing was shared.
        </Alert>
      </>
    );
  }
  return <ConsentForm client={client.data} redirectUri={redirectUri} challenge={challenge} search={search} />;
}

function ConsentForm({
  client,
  redirectUri,
  challenge,
  search,
}: {
  client: OAuthClientView;
  redirectUri: string;
  challenge: string;
  search: { state?: string; resource?: string; team?: string };
}) {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const [teamId, setTeamId] = useState(search.team ?? me.team.id);
  const decide = useDecideConsent();
  const [leaving, setLeaving] = useState(false);
  const legendId = useId();
  const destination = new URL(redirectUri);
  const where = destination.protocol.startsWith('http') ? destination.host : `${destination.protocol}//`;

  async function answer(decision: 'allow' | 'deny') {
    const { redirect_to } = await decide.mutateAsync({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(search.state !== undefined ? { state: search.state } : {}),
      ...(search.resource !== undefined ? { resource: search.resource } : {}),
      team_id: teamId,
      decision,
    });
    setLeaving(true);
    window.location.assign(redirect_to);
  }

  return (
    <div className="max-w-xl">
      <PageHeader
        title={`Connect ${client.client_name}`}
        description="An AI application asks to use the Media Generation API as you, through MCP."
      />
      <div className="space-y-5 text-sm text-zinc-700 dark:text-zinc-300">
        <p>If you allow it, {client.client_name} can:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>run tools (images, video, speech, music and more), which spend the team's credits;</li>
          <li>read the team's jobs, files, balance and spend.</li>
        </ul>
        <p>
          It gets an API key of the team you choose, named “MCP: {client.client_name}”. Revoke it on the Keys
          page at any time. You will be sent back to <span className="font-mono">{where}</span>.
        </p>
        <fieldset aria-labelledby={legendId} className="space-y-2">
          <legend id={legendId} className="font-medium text-zinc-900 dark:text-zinc-100">
            Team
          </legend>
          {me.teams.map((team) => (
            <label key={team.id} className="flex items-center gap-2">
              <input
                type="radio"
                name="team"
                value={team.id}
                checked={teamId === team.id}
                onChange={() => setTeamId(team.id)}
              />
              <span>
                {team.name}
                {team.personal ? ' (personal)' : ''}
              </span>
            </label>
          ))}
        </fieldset>
        {decide.isError && (
          <Alert tone="error" title="That did not work">
            {decide.error.message}
          </Alert>
        )}
        {leaving && <Alert>Taking you back to {client.client_name}…</Alert>}
        <div className="flex gap-3">
          <Button
            pending={decide.isPending && decide.variables?.decision === 'allow'}
            disabled={leaving}
            onClick={() => void answer('allow')}
          >
            Allow
          </Button>
          <Button
            variant="secondary"
            pending={decide.isPending && decide.variables?.decision === 'deny'}
            disabled={leaving}
            onClick={() => void answer('deny')}
          >
            Deny
          </Button>
        </div>
      </div>
    </div>
  );
}
