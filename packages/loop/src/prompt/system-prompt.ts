/**
 * The system prompt: built once per session from its parts, stored by content hash, and reused
 * byte for byte while the runtime it describes is unchanged — rebuilding would break the
 * provider's prompt cache.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readProjectContext } from './context-files.js';

/** The identity used when `HERMES_HOME/SOUL.md` does not exist. */
export const DEFAULT_IDENTITY =
  'You are Hermes, an autonomous assistant that gets real work done with the tools available ' +
  'to you. Act, check your results, and report plainly what you did and what is left.';

/** The runtime facts the prompt states, compared to decide whether a stored prompt is stale. */
export interface PromptRuntime {
  readonly model: string;
  readonly provider: string;
  readonly cwd: string;
  readonly platform: string;
}

/** Everything that goes into a fresh prompt. Each part is optional. */
export interface PromptParts {
  readonly runtime: PromptRuntime;
  /** Where `SOUL.md` lives. */
  readonly hermesHome?: string;
  /** The frozen memory snapshot block (MEMORY / USER PROFILE). */
  readonly memoryBlock?: string;
  /** The skills index, one line per skill. */
  readonly skillsIndex?: string;
  /** Extra text from plugins or the external memory provider. */
  readonly extraBlocks?: readonly string[];
  /** Read the project context file from `runtime.cwd`. Default true. */
  readonly includeProjectContext?: boolean;
}

/** The lines the staleness check compares, in prompt order. */
export function environmentLines(runtime: PromptRuntime): string[] {
  return [
    `Model: ${runtime.model}`,
    `Provider: ${runtime.provider}`,
    `Current working directory: ${runtime.cwd}`,
    `Platform: ${runtime.platform}`,
  ];
}

/** True when `prompt` states exactly this runtime's environment lines. */
export function promptMatchesRuntime(prompt: string, runtime: PromptRuntime): boolean {
  const lines = new Set(prompt.split('\n'));
  return environmentLines(runtime).every((line) => lines.has(line));
}

/** Content hash under which a prompt is stored. */
export function promptHash(prompt: string): string {
  return createHash('sha256').update(prompt).digest('hex');
}

/** Builds a fresh system prompt from its parts. */
export async function buildSystemPrompt(parts: PromptParts): Promise<string> {
  const sections = [await readIdentity(parts.hermesHome)];
  if (parts.memoryBlock?.trim()) sections.push(parts.memoryBlock.trim());
  for (const block of parts.extraBlocks ?? []) if (block.trim()) sections.push(block.trim());
  if (parts.skillsIndex?.trim()) {
    sections.push(
      `Skills (load one with skill_view before following it):\n${parts.skillsIndex.trim()}`,
    );
  }
  if (parts.includeProjectContext !== false) {
    const project = await readProjectContext(parts.runtime.cwd);
    if (project) sections.push(`Project context (${project.file}):\n${project.text.trim()}`);
  }
  sections.push(environmentLines(parts.runtime).join('\n'));
  return sections.join('\n\n');
}

async function readIdentity(hermesHome: string | undefined): Promise<string> {
  if (!hermesHome) return DEFAULT_IDENTITY;
  try {
    const soul = (await readFile(join(hermesHome, 'SOUL.md'), 'utf8')).trim();
    return soul || DEFAULT_IDENTITY;
  } catch {
    return DEFAULT_IDENTITY;
  }
}
