/** The `terminal` configuration section and choosing a backend from it, once per session. */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { DockerEnvironment } from './docker-environment.js';
import type { ExecutionEnvironment } from './execution-environment.js';
import { LocalEnvironment } from './local-environment.js';
import { SandboxEnvironment } from './sandbox-environment.js';
import { SshEnvironment } from './ssh-environment.js';

const positiveInt = z.number().int().positive();

/** `terminal:` in config.yaml. Unknown keys are rejected so typos are caught. */
export const TerminalConfigSchema = z
  .strictObject({
    backend: z.enum(['local', 'sandbox', 'ssh', 'docker']).default('local'),
    cwd: z.string().min(1).optional(),
    /** Default command timeout in seconds. */
    timeout: positiveInt.optional(),
    maxOutputChars: positiveInt.min(100).optional(),
    env: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a shell variable name'),
        z.string(),
      )
      .optional(),
    sandbox: z
      .strictObject({
        network: z.boolean().default(false),
        writablePaths: z.array(z.string()).default([]),
      })
      .optional(),
    ssh: z
      .strictObject({
        host: z.string().min(1, 'ssh.host is required for the ssh backend'),
        user: z.string().min(1).optional(),
        port: positiveInt.max(65_535).optional(),
        identityFile: z.string().min(1).optional(),
        knownHostsFile: z.string().min(1).optional(),
        strictHostKeyChecking: z.enum(['yes', 'accept-new', 'no']).optional(),
      })
      .optional(),
    docker: z
      .strictObject({
        image: z.string().min(1).default('debian:stable-slim'),
        network: z.boolean().default(false),
        mountCwd: z.boolean().default(false),
        volumes: z.array(z.string()).default([]),
        memory: z.string().optional(),
        cpus: z.string().optional(),
      })
      .optional(),
  })
  .superRefine((terminal, context) => {
    if (terminal.backend === 'ssh' && !terminal.ssh) {
      context.addIssue({
        code: 'custom',
        path: ['ssh'],
        message: 'the ssh backend needs ssh.host',
      });
    }
  });
export type TerminalConfig = z.infer<typeof TerminalConfigSchema>;

/** The part of the Hermes config this package reads. Other sections pass through untouched. */
export const EnvironmentConfigSchema = z.looseObject({
  terminal: TerminalConfigSchema.default({ backend: 'local' }),
});

/** Per-process settings that do not belong in config.yaml. */
export interface CreateEnvironmentOptions {
  readonly hermesHome?: string;
}

/**
 * Makes the session's environment from `config.terminal` (validated; a clear error names every
 * bad field). Call once per session: the backend is never switched per call, because switching
 * backends switches file systems.
 */
export function createEnvironment(
  config: unknown,
  options: CreateEnvironmentOptions = {},
): ExecutionEnvironment {
  const { terminal } = parseOrThrow(
    EnvironmentConfigSchema,
    config ?? {},
    'terminal configuration',
    'fix the terminal section of config.yaml',
  );
  const common = {
    ...(terminal.cwd ? { cwd: terminal.cwd } : {}),
    ...(terminal.timeout ? { defaultTimeoutMs: terminal.timeout * 1000 } : {}),
    ...(terminal.maxOutputChars ? { maxOutputChars: terminal.maxOutputChars } : {}),
    ...(terminal.env ? { env: terminal.env } : {}),
    ...(options.hermesHome ? { hermesHome: options.hermesHome } : {}),
  };
  switch (terminal.backend) {
    case 'local':
      return new LocalEnvironment(common);
    case 'sandbox':
      return new SandboxEnvironment({ ...common, ...compact(terminal.sandbox ?? {}) });
    case 'ssh':
      // The schema guarantees `ssh` for this backend.
      return new SshEnvironment({ ...common, ...compact(terminal.ssh ?? { host: '' }) });
    case 'docker': {
      const { mountCwd = false, ...docker } = terminal.docker ?? {};
      const workspace = mountCwd ? { hostWorkspace: terminal.cwd ?? process.cwd() } : {};
      const { cwd: _hostCwd, ...rest } = common;
      return new DockerEnvironment({ ...rest, ...compact(docker), ...workspace });
    }
  }
}

/** Drops keys whose value is `undefined`, which optional option fields do not accept. */
function compact<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
