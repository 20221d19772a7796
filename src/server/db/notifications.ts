import pg from 'pg';

/** How long a lost notification connection waits before it connects again. */
const RELISTEN_MS = 1_000;

/**
 * Listens to a PostgreSQL notification channel on a connection of its own (a pooled one would be handed
 * to others), connected again a second after it is lost. `onConnect` runs after each (re)connection:
 * what was sent while no one listened is lost, so the caller catches up there. Answers a function that
 * stops listening.
 */
export async function listenForNotifications(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onConnect: () => void = () => {},
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const again = () => {
    if (stopped) return;
    retry = setTimeout(() => connect().catch(again), RELISTEN_MS);
    retry.unref();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString, application_name: `listen ${channel}` });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) onPayload(message.payload);
    });
    next.on('error', () => {}); // 'end' follows, and reconnects
    next.on('end', () => {
      if (client === next) {
        client = null;
        again();
      }
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (stopped) return void (await next.end());
    client = next;
    onConnect();
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const last = client;
    client = null;
    await last?.end().catch(() => {});
  };
}
