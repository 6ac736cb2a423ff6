import type { GatewayIo } from '../src/index.ts';

/** A {@link GatewayIo} that records what was written, plus the written text. */
export interface Captured {
  readonly io: GatewayIo;
  stdout(): string;
  stderr(): string;
}

/** Collects output in memory; the environment is `process.env` unless `env` is given. */
export function capture(env?: Readonly<Record<string, string | undefined>>): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const io: GatewayIo = {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    ...(env ? { env } : {}),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
