/** The command line of `hermes chat`: parsed, checked, and turned into config flags. */
import { parseArgs } from 'node:util';
import { UsageError } from '@hermes/config';
import type { ConfigFlags } from '@hermes/runtime';

/** What `hermes chat` was asked to do. */
export interface ChatOptions {
  readonly help: boolean;
  /** `-q`: ask this one question and exit. */
  readonly query?: string;
  readonly json: boolean;
  readonly quiet: boolean;
  /** `--resume <id|title>`. */
  readonly resume?: string;
  /** `--continue`: the latest CLI session. */
  readonly continueLatest: boolean;
  readonly flags: ConfigFlags;
}

/** The help text of `hermes chat`. */
export const CHAT_USAGE = [
  'Usage: hermes chat [options]',
  '       hermes chat -q "question" [options]',
  '',
  'Talk with the agent. Without -q, an interactive session (type /help inside it).',
  '',
  'Options:',
  '  -q, --query <text>      ask one question: the answer on stdout, progress on stderr',
  '      --json              with -q: print the whole turn result as JSON',
  '      --quiet             with -q: no progress on stderr',
  '  -m, --model <name>      the model (overrides config.yaml)',
  '      --provider <name>   the provider (openai, anthropic, openrouter, …)',
  '      --base-url <url>    an OpenAI-compatible endpoint (llama.cpp, vLLM, Ollama, …)',
  '      --toolsets <a,b>    enable these toolsets (default hermes-cli)',
  '      --max-turns <n>     model calls per turn (default 90)',
  '      --run-budget <s>    wall-clock seconds per turn; at 80% the model is told to wrap up',
  '      --yolo              run flagged commands without asking (hardline rules still apply)',
  '  -r, --resume <id>       continue a session by id or title',
  '  -c, --continue          continue the latest session',
  '  -h, --help              show this help',
  '',
].join('\n');

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  query: { type: 'string', short: 'q' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  model: { type: 'string', short: 'm' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  toolsets: { type: 'string' },
  'max-turns': { type: 'string' },
  'run-budget': { type: 'string' },
  yolo: { type: 'boolean' },
  resume: { type: 'string', short: 'r' },
  continue: { type: 'boolean', short: 'c' },
} as const;

/** Parses the arguments after `chat`. Throws a `UsageError` naming the bad argument. */
export function parseChatOptions(args: readonly string[]): ChatOptions {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const v = parsed.values;
  if (v.query !== undefined && v.query.trim() === '')
    throw new UsageError("option '-q' needs a non-empty question");
  if ((v.json || v.quiet) && v.query === undefined)
    throw new UsageError('--json and --quiet go with -q');
  if (v.resume !== undefined && v.continue)
    throw new UsageError('give --resume or --continue, not both');
  const maxTurns = positiveNumber('--max-turns', v['max-turns'], true);
  const runBudgetSeconds = positiveNumber('--run-budget', v['run-budget'], false);
  const toolsets = v.toolsets
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const flags: ConfigFlags = {
    ...(v.model ? { model: v.model } : {}),
    ...(v.provider ? { provider: v.provider } : {}),
    ...(v['base-url'] ? { baseUrl: checkUrl(v['base-url']) } : {}),
    ...(toolsets?.length ? { toolsets } : {}),
    ...(v.yolo ? { yolo: true } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(runBudgetSeconds !== undefined ? { runBudgetSeconds } : {}),
  };
  return {
    help: v.help === true,
    json: v.json === true,
    quiet: v.quiet === true,
    continueLatest: v.continue === true,
    ...(v.query !== undefined ? { query: v.query } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
    flags,
  };
}

function positiveNumber(
  name: string,
  raw: string | undefined,
  integer: boolean,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(
      `${name} needs a positive ${integer ? 'whole number' : 'number'}, got '${raw}'`,
    );
  }
  return value;
}

function checkUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw;
  } catch {
    // reported below
  }
  throw new UsageError(
    `--base-url needs an http(s) URL, e.g. http://localhost:8080/v1; got '${raw}'`,
  );
}
