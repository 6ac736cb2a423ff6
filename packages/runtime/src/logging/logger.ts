/**
 * The file logger both binaries use: every line to one log under `HERMES_HOME/logs/` (the CLI's
 * `agent.log`, the gateway's `gateway.log`), warnings and errors also to `errors.log`, each
 * rotating by size, every line passed through `@hermes/providers`' `redactSecrets` (plus the
 * configured keys) so no key reaches a log.
 */
import { join } from 'node:path';
import { redactSecrets } from '@hermes/providers';
import { RotatingFile, type RotatingFileOptions } from './rotating-file.js';

/** Severity, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Structured extras of one line; an `Error` value is written with its code and message. */
export type LogFields = Readonly<Record<string, unknown>>;

/** What the chat, the commands and the gateway log through. Never throws. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that tags its lines with `component` and shares these files. */
  child(component: string): Logger;
}

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions extends RotatingFileOptions {
  /** The data home; logs go to `<hermesHome>/logs/`. */
  readonly hermesHome: string;
  /** Lines below this level are dropped. Default `info` (`debug` with `HERMES_DEBUG`). */
  readonly level?: LogLevel;
  /** Tag for every line, e.g. `chat`. */
  readonly component?: string;
  /** Exact strings to mask (the configured API keys), besides the recognized key formats. */
  readonly secrets?: readonly string[];
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** The file every line goes to, a name under `logs/`. Default `agent.log` (the CLI's). */
  readonly file?: string;
  /**
   * The file warnings and errors also go to, a name under `logs/`, or `false` for none. Default
   * `errors.log`, shared by both binaries: one place to look when something went wrong.
   */
  readonly errorsFile?: string | false;
}

/** The log files of a data home: the CLI's, the gateway's, and the errors both write. */
export function logPaths(hermesHome: string): { agent: string; errors: string; gateway: string } {
  const dir = join(hermesHome, 'logs');
  return {
    agent: join(dir, 'agent.log'),
    errors: join(dir, 'errors.log'),
    gateway: join(dir, 'gateway.log'),
  };
}

function describeValue(value: unknown): string {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return JSON.stringify(
      `${value.name}${typeof code === 'string' ? `[${code}]` : ''}: ${value.message}`,
    );
  }
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `2025-01-02T03:04:05.678Z WARN  [chat] message key=value …` plus a newline. */
export function formatLogLine(
  time: number,
  level: LogLevel,
  component: string | undefined,
  message: string,
  fields: LogFields = {},
): string {
  const tag = component ? ` [${component}]` : '';
  const extras = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}=${describeValue(value)}`)
    .join('');
  const text = `${message}${extras}`.replace(/\r?\n/g, '\\n');
  return `${new Date(time).toISOString()} ${level.toUpperCase().padEnd(5)}${tag} ${text}\n`;
}

interface Sinks {
  readonly main: RotatingFile;
  readonly errors: RotatingFile | undefined;
  broken: boolean;
}

/**
 * A logger writing to `HERMES_HOME/logs/<file>` (default `agent.log`) and `errors.log`, created
 * on first write. A log that cannot be written (read-only home, full disk) is given up silently:
 * logging must never break a turn.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const dir = join(options.hermesHome, 'logs');
  const errorsFile = options.errorsFile ?? 'errors.log';
  const sinks: Sinks = {
    main: new RotatingFile(join(dir, options.file ?? 'agent.log'), options),
    errors: errorsFile === false ? undefined : new RotatingFile(join(dir, errorsFile), options),
    broken: false,
  };
  const level = options.level ?? (process.env.HERMES_DEBUG ? 'debug' : 'info');
  return makeLogger(sinks, options, level, options.component);
}

function makeLogger(
  sinks: Sinks,
  options: CreateLoggerOptions,
  level: LogLevel,
  component: string | undefined,
): Logger {
  const now = options.now ?? Date.now;
  const secrets = options.secrets ?? [];
  const write = (at: LogLevel, message: string, fields?: LogFields): void => {
    if (sinks.broken || RANK[at] < RANK[level]) return;
    const line = redactSecrets(formatLogLine(now(), at, component, message, fields), secrets);
    try {
      sinks.main.write(line);
      if (RANK[at] >= RANK.warn) sinks.errors?.write(line);
    } catch {
      sinks.broken = true;
    }
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (name) => makeLogger(sinks, options, level, component ? `${component}.${name}` : name),
  };
}
