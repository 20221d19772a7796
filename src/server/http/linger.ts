import type { Socket } from 'node:net';

/**
 * How long a connection the server closes after an early answer goes on taking (and dropping) what the
 * client still sends, at most. A client reads the answer and stops well within it; one that never stops is
 * cut off then. 5 s, as nginx's lingering_timeout.
 */
export const LINGER_MS = 5_000;

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection after an answer that came before the request's end (413 mid-body, a parse error, a
 * timeout) without a reset: our side is ended (FIN after the answer) and what still arrives is read and
 * dropped until the client closes its side, or LINGER_MS. Closing with unread bytes in the kernel makes it
 * send a reset, and a reset can wipe the answer from the client's buffers before the client reads it; a
 * client still writing sees a write error first. Safe to call twice. The reading itself is the caller's:
 * Node's parser, or a request stream that was resumed.
 */
export function closeAfterAnswer(socket: Socket): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Both sides done (the client's FIN read, ours flushed): nothing is left unread, so the close is clean.
  socket.once('end', () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  });
  socket.end();
}
