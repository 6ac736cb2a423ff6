/** File reads, writes, listings and searches that behave the same on every backend. */
import { HermesError } from '@hermes/protocol';

/** What kind of thing a path is. */
export type FileType = 'file' | 'dir' | 'other';

/** Options of {@link FileOperations.readText}. */
export interface ReadTextOptions {
  /** The first line to return, counting from 1. Default 1. */
  readonly offset?: number;
  /** The most lines to return. Default 2,000. */
  readonly limit?: number;
}

/** A range of lines from a text file. */
export interface ReadTextResult {
  /** The requested lines, without their line ends; empty for a binary file. */
  readonly lines: string[];
  /** Lines in the whole file (a last line without a newline counts). */
  readonly totalLines: number;
  /** The number of the first line in `lines`, counting from 1. */
  readonly startLine: number;
  /** The file looks binary (a NUL byte in its first 8 KiB); its lines are not returned. */
  readonly binary: boolean;
  /** Size in bytes. */
  readonly size: number;
}

/** What {@link FileOperations.stat} says about a path. A missing path is `exists: false`. */
export interface FileStat {
  readonly exists: boolean;
  readonly type: FileType;
  readonly size: number;
  /** Last modification, in ms since the epoch (0 when missing). */
  readonly mtimeMs: number;
}

/** One entry of a directory listing. */
export interface DirEntry {
  readonly name: string;
  readonly type: FileType;
  readonly size: number;
}

/** Options of {@link FileOperations.search}. */
export interface SearchOptions {
  /** File or directory to search. Default `.`, the environment's working directory. */
  readonly path?: string;
  /** Only files whose name matches this glob, such as `*.ts`. */
  readonly glob?: string;
  /** The most matches to return. Default 100. */
  readonly maxResults?: number;
  readonly ignoreCase?: boolean;
}

/** One line that matched a search. */
export interface SearchMatch {
  readonly path: string;
  /** Line number, counting from 1. */
  readonly line: number;
  readonly text: string;
}

/**
 * File operations over an environment. Relative paths are relative to the environment's current
 * working directory, so the file tools see what the terminal sees on every backend.
 */
export interface FileOperations {
  /** Reads a range of lines. Rejects with {@link FileOperationError} when missing or a directory. */
  readText(path: string, options?: ReadTextOptions): Promise<ReadTextResult>;
  /** Reads a whole file as UTF-8 (invalid bytes become U+FFFD). */
  readWhole(path: string): Promise<string>;
  /** Writes `content` as UTF-8, creating parent directories; resolves with the bytes written. */
  writeText(path: string, content: string): Promise<{ bytes: number }>;
  stat(path: string): Promise<FileStat>;
  /** The entries of a directory, sorted by name, without `.` and `..`. */
  list(path: string): Promise<DirEntry[]>;
  /** Lines matching an extended regular expression (grep -E), skipping binary files. */
  search(pattern: string, options?: SearchOptions): Promise<SearchMatch[]>;
}

/** Why a file operation failed. */
export type FileOperationFailure =
  | 'not_found'
  | 'is_directory'
  | 'not_a_directory'
  | 'bad_pattern'
  | 'failed';

/** The code of every {@link FileOperationError}. */
export const FILE_OPERATION_ERROR_CODE = 'environment.file_operation';

/** A file operation could not be done; `reason` says why, the message says what to do. */
export class FileOperationError extends HermesError {
  readonly reason: FileOperationFailure;
  readonly path: string;

  constructor(reason: FileOperationFailure, path: string, message: string) {
    super(FILE_OPERATION_ERROR_CODE, message, { details: { reason, path } });
    this.reason = reason;
    this.path = path;
  }
}

/** The standard error for each failure, worded the same on every backend. */
export function fileError(
  reason: FileOperationFailure,
  path: string,
  detail = '',
): FileOperationError {
  const messages: Record<FileOperationFailure, string> = {
    not_found: `${path} does not exist; check the path (relative paths start in the working directory)`,
    is_directory: `${path} is a directory, not a file; list it instead`,
    not_a_directory: `${path} is not a directory`,
    bad_pattern: `the search pattern is not a valid extended regular expression: ${detail}`,
    failed: `cannot access ${path}: ${detail}`,
  };
  return new FileOperationError(reason, path, messages[reason]);
}

/** Defaults shared by both implementations. */
export const DEFAULT_READ_LIMIT = 2_000;
export const DEFAULT_SEARCH_RESULTS = 100;
/** A NUL byte within this many leading bytes marks a file as binary. */
export const BINARY_PROBE_BYTES = 8_192;

/** Validates and defaults the read range. */
export function readRange(options: ReadTextOptions): { start: number; limit: number } {
  const start = options.offset ?? 1;
  const limit = options.limit ?? DEFAULT_READ_LIMIT;
  if (!Number.isInteger(start) || start < 1) {
    throw new RangeError(
      `offset must be a whole number of at least 1 (the first line), got ${start}`,
    );
  }
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a whole number of at least 1, got ${limit}`);
  }
  return { start, limit };
}

/** Splits text into lines on `\n`, dropping the empty piece after a final newline. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
