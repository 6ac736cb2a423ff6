/** Starts `memory-child.mjs` against the built package and reads its JSON steps. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

function newestMtime(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newestMtime(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );
}

/** The built entry the child imports; throws with the fix when it is missing or stale. */
export function builtEntry(): string {
  const entry = join(packageRoot, 'dist', 'index.js');
  const hint = 'run `npx tsup` in packages/memory (the root `verify` builds first)';
  if (!existsSync(entry))
    throw new Error(`${entry} is missing: the child process needs it; ${hint}`);
  if (statSync(entry).mtimeMs < newestMtime(join(packageRoot, 'src'))) {
    throw new Error(`${entry} is older than src/: ${hint}`);
  }
  return entry;
}

/** A running child. */
export interface MemoryChild {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the child printed `step`. */
  waitFor(step: string): Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
}

/** Spawns the child in `mode`. */
export function startChild(config: Record<string, unknown>): MemoryChild {
  const script = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
  const child = spawn(process.execPath, [
    script,
    JSON.stringify({ entry: builtEntry(), ...config }),
  ]);
  const seen: Record<string, unknown>[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      seen.push(JSON.parse(buffer.slice(0, at)) as Record<string, unknown>);
      buffer = buffer.slice(at + 1);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => {
      for (const wake of waiters.splice(0)) wake();
      resolve({ code, stderr });
    }),
  );
  const waitFor = async (step: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const found = seen.find((s) => s.step === step);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`child exited before "${step}": ${stderr}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, waitFor, exited };
}
