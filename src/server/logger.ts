export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The access log line of one request (info level), formatted without a generic stringify. */
  request(requestId: string, method: string, path: string, status: number, ms: number): void;
  /** True when request lines are written (info or below), so callers can skip gathering them. */
  readonly requestsEnabled: boolean;
}

/** Field names whose values never reach the log, wherever they appear. */
const SECRET_FIELDS = /authorization|password|secret|token|api_key|otp|cookie/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = SECRET_FIELDS.test(key) ? '[redacted]' : value;
  return out;
}

/** JSON lines on stdout (errors on stderr): one object per event, easy to grep and to ship. */
export function createLogger(
  level: LogLevel,
  write: (line: string, isError: boolean) => void = defaultWrite,
): Logger {
  const log = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const entry = { time: new Date().toISOString(), level: at, msg, ...(fields ? redact(fields) : {}) };
    write(JSON.stringify(entry), at === 'error');
  };
  const requests = ORDER.info >= ORDER[level];
  return {
    requestsEnabled: requests,
    request(requestId, method, path, status, ms) {
      if (!requests) return;
      // request ids match /^[A-Za-z0-9._-]+$/ and methods are tokens: only the path needs escaping.
      write(
        `{"time":"${new Date().toISOString()}","level":"info","msg":"request","request_id":"${requestId}","method":"${method}","path":${JSON.stringify(path)},"status":${status},"ms":${ms}}`,
        false,
      );
    },
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
  };
}

/**
 * Lines are gathered and written once per turn of the event loop: one write per request was a
 * tenth of a busy server's time. Errors go out at once (after what came before them), and
 * whatever is pending is written when the process exits.
 */
let pending: string[] = [];
let scheduled = false;

function flushPending() {
  scheduled = false;
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  process.stdout.write(text);
}

process.on('exit', flushPending);

function defaultWrite(line: string, isError: boolean) {
  if (isError) {
    flushPending();
    process.stderr.write(`${line}\n`);
    return;
  }
  pending.push(line);
  if (pending.length >= 512) flushPending();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flushPending);
  }
}
