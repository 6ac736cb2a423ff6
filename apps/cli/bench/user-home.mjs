// Data homes for the start-up bench: a bare one (config.yaml only) and one shaped like a real
// user's after some use — a commented config.yaml, a .env with keys, SOUL.md, memories, a dozen
// installed skills with supporting files. state.db and logs/ come from the bench's warm-up runs.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO_SKILLS = new URL('../../../skills', import.meta.url);

/** A data home holding only a config.yaml that points at `baseUrl`. */
export function bareHome(baseUrl) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-bench-bare-'));
  writeFileSync(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${baseUrl}\n`,
  );
  return home;
}

const CONFIG = (baseUrl) => `# Hermes configuration (written by hermes setup, then edited by hand)
model:
  provider: openai # the key is OPENAI_API_KEY in .env
  default: scripted-model
  base_url: ${baseUrl}
  fallback:
    - { provider: anthropic, model: claude-sonnet-4-5 }
agent:
  max_turns: 60
  run_budget_seconds: 900
toolsets: [hermes-cli]
disabled_toolsets: []
terminal:
  backend: local
approvals:
  mode: smart
  command_allowlist: ['git status', 'npm test']
memory:
  provider: builtin
  memory_char_limit: 2200
  user_char_limit: 1375
skills:
  external_dirs: []
compression:
  enabled: true
  threshold: 0.75
display:
  show_reasoning: true
  tool_progress: all
`;

const DOTENV = `# API keys (hermes config set NAME value writes here)
OPENAI_API_KEY=sk-bench-0123456789abcdefghijklmnopqrstuvwxyz
ANTHROPIC_API_KEY="sk-ant-bench-0123456789abcdefghijklmnop"
export OPENROUTER_API_KEY=sk-or-bench-0123456789abcdef
HERMES_MAX_ITERATIONS=60
GITHUB_TOKEN=ghp_bench0123456789abcdefghijklmnopqrstu
`;

const SOUL = `You are Hermes, a calm and precise assistant for a software engineer.
Prefer short answers, show commands before running them, and say so when you are unsure.
When you change files, summarise what changed and why in one or two sentences.
`;

const MEMORY = [
  'The main project lives in ~/src/harbour; its tests run with `pnpm test`.',
  'Deploys go through the `deploy` GitHub workflow, never by hand.',
  'The staging database is read-only for this user.',
  'Use British spelling in documentation.',
  'The CI runners have 2 cores; keep test parallelism at 2.',
].join('\n§\n');

const USER = [
  'Name: Sam. Works on the harbour tide-table service.',
  'Prefers TypeScript, Vitest and small commits.',
  'Time zone: Europe/Paris.',
].join('\n§\n');

/**
 * A data home like a real user's: config.yaml with comments and every section, a .env with
 * several keys, SOUL.md, MEMORY.md and USER.md with entries, and the repository's skills
 * installed under skills/ (plus two more), so the skills index has something to scan.
 */
export function userHome(baseUrl) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-bench-user-'));
  writeFileSync(join(home, 'config.yaml'), CONFIG(baseUrl));
  writeFileSync(join(home, '.env'), DOTENV, { mode: 0o600 });
  writeFileSync(join(home, 'SOUL.md'), SOUL);
  mkdirSync(join(home, 'memories'));
  writeFileSync(join(home, 'memories', 'MEMORY.md'), MEMORY);
  writeFileSync(join(home, 'memories', 'USER.md'), USER);
  const skills = join(home, 'skills');
  cpSync(REPO_SKILLS, skills, { recursive: true });
  for (const name of ['tide-tables', 'release-notes']) {
    const dir = join(skills, 'personal', name);
    mkdirSync(join(dir, 'references'), { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: The ${name} routine, written by the user.\n---\n\n# ${name}\n\n${'Step by step, with the commands to run.\n'.repeat(40)}`,
    );
    writeFileSync(join(dir, 'references', 'notes.md'), 'Background notes.\n'.repeat(50));
  }
  return home;
}
