/** Parsing outside input against a zod schema with an error that says what was wrong. */
import type { z } from 'zod';
import { HermesError } from './errors.js';

/** The code of every {@link ValidationError}. */
export const VALIDATION_ERROR_CODE = 'validation.invalid_input';

/** One problem found in the input: where it is, and what is wrong there. */
export interface ValidationIssue {
  /** Dotted path into the input, `(root)` for the value itself. */
  readonly path: string;
  readonly message: string;
}

/** Outside input (config, tool arguments, HTTP body, model output) did not match its schema. */
export class ValidationError extends HermesError {
  readonly issues: readonly ValidationIssue[];

  constructor(what: string, issues: readonly ValidationIssue[], hint?: string) {
    const list = issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n');
    const tail = hint ? `\n${hint}` : '';
    super(VALIDATION_ERROR_CODE, `Invalid ${what}:\n${list}${tail}`, {
      details: { what, issues },
    });
    this.issues = issues;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      return index === 0 ? String(key) : `.${String(key)}`;
    })
    .join('');
}

/**
 * Parses `input` with `schema`, or throws a {@link ValidationError} naming `what` was parsed,
 * every offending path, and an optional `hint` saying how to fix it.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  hint?: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
  throw new ValidationError(what, issues, hint);
}
