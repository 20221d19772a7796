export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
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
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
  };
}

function defaultWrite(line: string, isError: boolean) {
  (isError ? process.stderr : process.stdout).write(`${line}\n`);
}
