/** The shape every skill tool returns: JSON text for the model plus the same data for the host. */
import type { z } from 'zod';

/** A skill tool's answer. `text` is `data` as JSON; `data.success` says whether it worked. */
export interface SkillToolResult {
  readonly text: string;
  readonly data: Readonly<Record<string, unknown>> & { readonly success: boolean };
}

/** A successful result. */
export function ok(data: Record<string, unknown>): SkillToolResult {
  const full = { success: true, ...data };
  return { text: JSON.stringify(full, null, 2), data: full };
}

/** A refusal or failure the model can read and act on. */
export function fail(error: string, extra: Record<string, unknown> = {}): SkillToolResult {
  const full = { success: false, error, ...extra };
  return { text: JSON.stringify(full, null, 2), data: full };
}

/** Parses tool arguments, or returns a failure naming each bad field. */
export function parseArgs<S extends z.ZodType>(
  schema: S,
  args: unknown,
  tool: string,
): { args: z.output<S> } | { failure: SkillToolResult } {
  const result = schema.safeParse(args ?? {});
  if (result.success) return { args: result.data };
  const problems = result.error.issues.map(
    (issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`,
  );
  return { failure: fail(`Invalid ${tool} arguments: ${problems.join('; ')}`) };
}
