/** The one project context file the system prompt includes, found in the working directory. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Candidates in priority order; only the first that exists is used. */
export const PROJECT_CONTEXT_FILES = [
  '.hermes.md',
  'HERMES.md',
  'AGENTS.md',
  'CLAUDE.md',
  '.cursorrules',
] as const;

/** Longest project file included verbatim; longer files are cut with a note. */
export const MAX_CONTEXT_FILE_CHARS = 20_000;

/** A project context file's name and (possibly truncated) text. */
export interface ProjectContext {
  readonly file: string;
  readonly text: string;
}

/** Reads the first project context file in `cwd`, or undefined when there is none. */
export async function readProjectContext(cwd: string): Promise<ProjectContext | undefined> {
  for (const file of PROJECT_CONTEXT_FILES) {
    let text: string;
    try {
      text = await readFile(join(cwd, file), 'utf8');
    } catch {
      continue;
    }
    if (text.length > MAX_CONTEXT_FILE_CHARS) {
      text = `${text.slice(0, MAX_CONTEXT_FILE_CHARS)}\n[… ${file} truncated at ${MAX_CONTEXT_FILE_CHARS} characters]`;
    }
    return { file, text };
  }
  return undefined;
}
