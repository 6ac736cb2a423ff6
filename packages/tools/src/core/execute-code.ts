/**
 * `execute_code`: runs a JavaScript (ES module) script in a Node subprocess. The script imports
 * `hermes_tools` to call a whitelist of the agent's tools over an RPC bridge, so many tool calls
 * cost one model turn. Limits: 300 s, 50 tool calls, 50,000 chars of stdout, 10,000 of stderr.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../tool-context.js';
import type { ToolSpec } from '../tool-spec.js';
import { capText, eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import { startBridge } from './execute-code-bridge.js';
import { clientModuleSource } from './execute-code-client.js';

/** Runs a tool on the script's behalf (normally the registry's dispatch). */
export type ExecuteCodeDispatch = (
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<string>;

/** Settings of `execute_code`. Without `dispatch` the tool is hidden. */
export interface ExecuteCodeOptions {
  readonly dispatch?: ExecuteCodeDispatch;
  /** Tools the script may call. Default {@link DEFAULT_EXECUTE_CODE_TOOLS}. */
  readonly allowedTools?: readonly string[];
  /** Default 300,000 ms. */
  readonly timeoutMs?: number;
  /** Default 50. */
  readonly maxToolCalls?: number;
  /** Default 50,000. */
  readonly maxStdoutChars?: number;
  /** Default 10,000. */
  readonly maxStderrChars?: number;
  /** The script's working directory. Default: the local environment's current directory. */
  readonly cwd?: string;
}

/** The tools a script may call unless configured otherwise. */
export const DEFAULT_EXECUTE_CODE_TOOLS: readonly string[] = [
  'web_search',
  'web_extract',
  'read_file',
  'write_file',
  'search_files',
  'patch',
  'terminal',
];

/** Arguments of `execute_code`. */
export const ExecuteCodeArgsSchema = z.object({
  code: z
    .string()
    .min(1, 'code must not be empty')
    .describe('An ES module script; top-level await works'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type ExecuteCodeArgs = z.infer<typeof ExecuteCodeArgsSchema>;

/** Variables passed through to the script; everything else (API keys included) is withheld. */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'USER'];

interface RunOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  interrupted: boolean;
}

/** Keeps up to `cap` chars plus the tail, so huge output cannot exhaust memory. */
function collector(cap: number): { push: (s: string) => void; text: () => string } {
  let head = '';
  let tail = '';
  let dropped = 0;
  return {
    push: (s) => {
      if (head.length < cap) {
        const room = cap - head.length;
        head += s.slice(0, room);
        s = s.slice(room);
      }
      tail += s;
      if (tail.length > cap) {
        dropped += tail.length - cap;
        tail = tail.slice(tail.length - cap);
      }
    },
    text: () =>
      capText(head + (dropped > 0 ? `\n… [${dropped} characters omitted] …\n` : '') + tail, cap),
  };
}

function runScript(
  dir: string,
  env: Record<string, string>,
  cwd: string,
  limits: { timeoutMs: number; out: number; err: number },
  signal: AbortSignal,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dir, 'main.mjs')], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = collector(limits.out);
    const stderr = collector(limits.err);
    child.stdout.setEncoding('utf8').on('data', stdout.push);
    child.stderr.setEncoding('utf8').on('data', stderr.push);
    let timedOut = false;
    let interrupted = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.timeoutMs);
    const onAbort = (): void => {
      interrupted = true;
      kill();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode: code,
        timedOut,
        interrupted,
      });
    });
  });
}

/** The local environment's working directory (where `terminal` would run), else ours. */
function environmentCwd(ctx: ToolContext): string {
  const cwd = (ctx.environment as { cwd?: unknown }).cwd;
  return typeof cwd === 'string' ? cwd : process.cwd();
}

function childEnv(socketPath: string): Record<string, string> {
  const env: Record<string, string> = { HERMES_RPC_SOCKET: socketPath };
  for (const key of PASSED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

async function prepare(dir: string, code: string, tools: readonly string[]): Promise<void> {
  const pkg = join(dir, 'node_modules', 'hermes_tools');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'hermes_tools', type: 'module', main: 'index.js' }),
  );
  await writeFile(join(pkg, 'index.js'), clientModuleSource(tools));
  await writeFile(join(dir, 'main.mjs'), code);
}

function statusOf(run: RunOutcome): string {
  if (run.interrupted) return 'interrupted';
  if (run.timedOut) return 'timeout';
  return run.exitCode === 0 ? 'success' : 'error';
}

/** Builds `execute_code`; hidden unless `options.dispatch` is given. */
export function createExecuteCodeTool(options: ExecuteCodeOptions = {}): ToolSpec {
  const allowed = (options.allowedTools ?? DEFAULT_EXECUTE_CODE_TOOLS).filter(
    (name) => name !== 'execute_code' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name),
  );
  const timeoutMs = options.timeoutMs ?? 300_000;
  return eraseArgs<ExecuteCodeArgs>({
    name: 'execute_code',
    toolset: 'code_execution',
    emoji: '🐍',
    checkFn: () => options.dispatch !== undefined,
    description: `Run a JavaScript ES module in a Node subprocess (top-level await allowed). Import tools with \`import { ${allowed.slice(0, 3).join(', ')} } from 'hermes_tools'\`; each takes the tool's arguments object and resolves to its result text. Available: ${allowed.join(', ')}. Use it to chain many tool calls in one step. Limits: ${timeoutMs / 1000} s, ${options.maxToolCalls ?? 50} tool calls; print what you want to see with console.log.`,
    parameters: ExecuteCodeArgsSchema,
    handler: async (args, ctx) => {
      const dispatch = options.dispatch;
      if (!dispatch) throw new CoreToolError('execute_code is not configured in this session.');
      if (ctx.environment.name !== 'local') {
        throw new CoreToolError(
          `execute_code runs only with the local environment (this session uses "${ctx.environment.name}"); use terminal instead.`,
        );
      }
      const dir = await mkdtemp(join(tmpdir(), 'hermes-exec-'));
      const socketPath = join(dir, 'rpc.sock');
      const bridge = await startBridge({
        socketPath,
        allowed: new Set(allowed),
        maxCalls: options.maxToolCalls ?? 50,
        dispatch: (name, toolArgs) => dispatch(name, toolArgs, ctx),
      });
      const started = Date.now();
      try {
        await prepare(dir, args.code, allowed);
        ctx.onActivity?.('running script');
        const run = await runScript(
          dir,
          childEnv(socketPath),
          options.cwd ?? environmentCwd(ctx),
          {
            timeoutMs,
            out: options.maxStdoutChars ?? 50_000,
            err: options.maxStderrChars ?? 10_000,
          },
          ctx.signal,
        );
        return JSON.stringify({
          status: statusOf(run),
          output: run.stdout,
          ...(run.stderr ? { stderr: run.stderr } : {}),
          exit_code: run.exitCode,
          tool_calls_made: bridge.calls(),
          duration_seconds: Math.round((Date.now() - started) / 100) / 10,
          ...(run.timedOut
            ? { error: `Script timed out after ${timeoutMs / 1000} s and was killed.` }
            : {}),
        });
      } finally {
        await bridge.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  });
}
