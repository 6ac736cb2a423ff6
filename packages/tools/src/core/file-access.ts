/** How the file tools reach files, and the write guard they share. */
import { isAbsolute, resolve } from 'node:path';
import {
  type ExecutionEnvironment,
  type FileOperations,
  fileOperationsFor,
} from '@hermes/environments';
import type { ToolContext } from '../tool-context.js';
import { CoreToolError } from './errors.js';

/** Gives the file operations of an environment. Default `fileOperationsFor`. */
export type FileOperationsProvider = (environment: ExecutionEnvironment) => FileOperations;

/** The default provider: `fs` for the local environment, shell commands for the others. */
export const defaultFileOperations: FileOperationsProvider = fileOperationsFor;

/**
 * The file-write guard for `write_file` and `patch`. With an approval layer, its
 * `checkFileWrite` rules (system files, credentials, Hermes's own config are blocked). Without
 * one the write is allowed: that context has no policy to apply, unlike commands, which fail
 * closed because a command can do anything.
 *
 * @throws CoreToolError naming the path and the guard's reason.
 */
export function guardWrite(ctx: ToolContext, path: string): void {
  const verdict = ctx.approval?.checkFileWrite(guardPath(ctx.environment, path));
  if (verdict && verdict.decision !== 'allow') {
    throw new CoreToolError(`Write to ${path} refused: ${verdict.reason}`, {
      stage: verdict.stage,
    });
  }
}

/**
 * The path the guard judges: relative paths are resolved against the environment's working
 * directory (where the write really lands), not this process's.
 */
export function guardPath(environment: ExecutionEnvironment, path: string): string {
  if (isAbsolute(path) || path.startsWith('~')) return path;
  const cwd = (environment as { cwd?: unknown }).cwd;
  return typeof cwd === 'string' ? resolve(cwd, path) : path;
}
