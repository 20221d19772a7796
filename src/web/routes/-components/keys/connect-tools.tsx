import { useId } from 'react';
import { resolveBaseUrl, useServerSettings } from '../../../api/server-settings.ts';
import { CopyButton } from '../../../components/copy-button.tsx';

/** A block of text to paste elsewhere, with its Copy button named after what it is. */
function Snippet({ label, value }: { label: string; value: string }) {
  // The figure takes its name from the caption.
  return (
    <figure className="mt-2">
      <figcaption className="flex items-center justify-between text-xs text-zinc-600 dark:text-zinc-400">
        <span>{label}</span>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </figcaption>
      {/* Wrapped, never scrolled sideways: a scrolling block would need its own keyboard focus. */}
      <pre className="mt-1 whitespace-pre-wrap break-all rounded-lg bg-zinc-100 p-3 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
        {value}
      </pre>
    </figure>
  );
}

/**
 * The same keys from a terminal and from AI agents: the exact `media` commands and MCP configuration for
 * the server this console talks to (docs/cli.md, docs/mcp.md).
 */
export function ConnectTools() {
  const root = resolveBaseUrl(useServerSettings()).replace(/\/v2\/?$/, '');
  const mcp = `${root}/mcp`;
  const cliId = useId();
  const mcpId = useId();
  const config = JSON.stringify(
    { mcpServers: { media: { url: mcp, headers: { Authorization: 'Bearer <your key>' } } } },
    null,
    2,
  );
  return (
    <div className="mt-10 grid gap-8 border-t border-zinc-200 pt-8 md:grid-cols-2 dark:border-zinc-800">
      <section aria-labelledby={cliId}>
        <h2 id={cliId} className="text-base font-semibold">
          Use with the CLI
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Sign in with an emailed code; the CLI keeps its own key. In CI, give it a key instead.
        </p>
        <Snippet label="Sign in" value={`npx media login --base-url ${root}`} />
        <Snippet label="Generate" value={'npx media image "a red fox in the snow" --out fox.png'} />
        <Snippet label="CI" value={`MEDIA_BASE_URL=${root} MEDIA_API_KEY=<your key> npx media whoami`} />
      </section>
      <section aria-labelledby={mcpId}>
        <h2 id={mcpId} className="text-base font-semibold">
          Connect an MCP client
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Clients that sign in with OAuth (Claude, claude.ai connectors) need only the URL: you choose the
          team when you allow them, and their key shows up here. Others take a key in a header.
        </p>
        <Snippet label="URL" value={mcp} />
        <Snippet label="Claude Code" value={`claude mcp add --transport http media ${mcp}`} />
        <Snippet label="Cursor and JSON configs" value={config} />
      </section>
    </div>
  );
}
