/**
 * Structured log lines. On the Pi stdout goes to journald, so one line per record, with a level and
 * fields a technician can grep. CLI tools log to stderr so their stdout stays machine-readable.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export type LogSink = (line: string) => void;

export function createLogger(opts: { level?: LogLevel; sink?: LogSink; json?: boolean; base?: Record<string, unknown> } = {}): Logger {
  const level = opts.level ?? 'info';
  const sink = opts.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const json = opts.json ?? false;
  const base = opts.base ?? {};
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const all = { ...base, ...fields };
    if (json) {
      sink(JSON.stringify({ level: lvl, msg, ...serialise(all) }));
    } else {
      const kv = Object.entries(serialise(all))
        .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)}`)
        .join(' ');
      sink(`${lvl.toUpperCase().padEnd(5)} ${msg}${kv ? ' ' + kv : ''}`);
    }
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ level, sink, json, base: { ...base, ...fields } }),
  };
}

function serialise(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? v.message : v;
  }
  return out;
}

/** A logger that keeps its lines, for tests. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', json: true, sink: (l) => lines.push(l) });
  return Object.assign(logger, { lines });
}
