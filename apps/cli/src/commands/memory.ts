/**
 * `hermes memory show|edit`: the built-in memory files, `MEMORY.md` (the agent's notes) and
 * `USER.md` (who the user is), under `HERMES_HOME/memories/`, with their usage against the
 * limits in config.yaml (`memory.memory_char_limit`, `memory.user_char_limit`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ExitCode } from '@hermes/config';
import {
  BuiltinMemoryStore,
  describeMemoryThreat,
  formatMemoryUsage,
  type MemoryTarget,
  memoryCharCount,
  scanMemoryContent,
} from '@hermes/memory';
import { isHermesError } from '@hermes/protocol';
import { loadHermesConfig } from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';

const USAGE = `Usage: hermes memory <subcommand>

  show            print MEMORY.md and USER.md with their usage against the limits
  edit [memory|user]
                  open MEMORY.md (default) or USER.md in $VISUAL / $EDITOR (default vi)

Entries are separated by a line holding only §. Both files are injected into every new
session's system prompt, so keep them short and factual.
`;

const TARGETS: readonly MemoryTarget[] = ['memory', 'user'];

async function openStore(ctx: CommandContext): Promise<BuiltinMemoryStore> {
  const config = await loadHermesConfig(ctx);
  return new BuiltinMemoryStore({
    hermesHome: ctx.hermesHome,
    ...(config.memory
      ? {
          memoryCharLimit: config.memory.memoryCharLimit,
          userCharLimit: config.memory.userCharLimit,
        }
      : {}),
  });
}

/** `MEMORY.md — 1,234/2,200 chars (56%), 4 entries` */
function usageLine(store: BuiltinMemoryStore, target: MemoryTarget, entries: readonly string[]) {
  const used = memoryCharCount(entries);
  const limit = store.limitOf(target);
  const percent = Math.round((used / limit) * 100);
  const over = used > limit ? ' — OVER THE LIMIT: the agent can only remove entries' : '';
  const file = target === 'memory' ? 'MEMORY.md' : 'USER.md';
  return `${file} — ${formatMemoryUsage(used, limit)} (${percent}%), ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${over}`;
}

async function show(ctx: CommandContext): Promise<number> {
  const store = await openStore(ctx);
  for (const target of TARGETS) {
    const entries = await store.readEntries(target);
    ctx.stdout.write(`${usageLine(store, target, entries)}\n  ${store.pathOf(target)}\n`);
    ctx.stdout.write(
      entries.length === 0 ? '  (empty)\n' : `${entries.map((e) => `\n${e}\n§`).join('')}\n`,
    );
    ctx.stdout.write('\n');
  }
  return ExitCode.ok;
}

/** Runs the editor through the shell, so `EDITOR="code --wait"` works; resolves to its exit code. */
function runEditor(editor: string, file: string, env: CommandContext['env']): Promise<number> {
  const quoted = `'${file.replace(/'/g, "'\\''")}'`;
  return new Promise((resolve, reject) => {
    const child = spawn(`${editor} ${quoted}`, {
      shell: true,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function edit(which: string | undefined, ctx: CommandContext): Promise<number> {
  const target = (which ?? 'memory') as MemoryTarget;
  if (!TARGETS.includes(target)) {
    return usageFailure(ctx, 'memory', `unknown file '${which}'; use 'memory' or 'user'`);
  }
  const store = await openStore(ctx);
  const path = store.pathOf(target);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '', { mode: 0o600 });
  }
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
  const code = await runEditor(editor, path, ctx.env);
  if (code !== 0) {
    ctx.stderr.write(`hermes memory: the editor (${editor}) exited with ${code}\n`);
    return ExitCode.failure;
  }
  const entries = await store.readEntries(target);
  ctx.stdout.write(`${usageLine(store, target, entries)}\n`);
  const threat = scanMemoryContent(entries.join('\n'));
  if (threat) {
    ctx.stderr.write(
      `hermes memory: warning: ${describeMemoryThreat(threat)}. This text goes into every system prompt; rephrase it as a plain fact.\n`,
    );
  }
  return ExitCode.ok;
}

/** Runs `hermes memory`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'memory', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
    });
    const [sub = 'show', which, extra] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (sub !== 'show' && sub !== 'edit')
      return usageFailure(ctx, 'memory', `unknown subcommand '${sub}'`);
    const unexpected = sub === 'show' ? which : extra;
    if (unexpected !== undefined)
      return usageFailure(ctx, 'memory', `unexpected argument '${unexpected}'`);
    try {
      return sub === 'show' ? await show(ctx) : await edit(which, ctx);
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes memory: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
