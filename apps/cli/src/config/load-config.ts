/**
 * Loads the CLI configuration. MINIMAL VERSION: reads `model:` and `agent:` from config.yaml and
 * keys from the environment / `.env`; the full loader (zod validation with key paths and lines,
 * `${VAR}` substitution, profiles, unknown-key warnings) replaces the body, keeping the signature.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CliConfig, CliFlags } from './cli-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Resolves the configuration for `hermesHome`, applying `flags` on top. */
export async function loadCliConfig(
  context: { readonly hermesHome: string; readonly env: Env },
  flags: CliFlags = {},
): Promise<CliConfig> {
  const path = join(context.hermesHome, 'config.yaml');
  const raw = existsSync(path) ? (parse(readFileSync(path, 'utf8')) ?? {}) : {};
  const model = (raw.model ?? {}) as Record<string, unknown>;
  const provider = flags.provider ?? (model.provider as string | undefined) ?? 'openai';
  const name =
    flags.model ?? (model.default as string | undefined) ?? (model.name as string | undefined);
  const baseUrl = flags.baseUrl ?? (model.base_url as string | undefined);
  const agent = (raw.agent ?? {}) as Record<string, unknown>;
  const common = {
    hermesHome: context.hermesHome,
    maxTurns: flags.maxTurns ?? (agent.max_turns as number | undefined) ?? 90,
    yolo: flags.yolo ?? false,
    skillDirs: [],
    warnings: [],
    ...(flags.toolsets ? { toolsets: flags.toolsets } : {}),
  };
  if (!name) {
    return {
      ...common,
      provider: undefined,
      providerProblem: 'No model is configured. Run `hermes setup` (or pass --model).',
    };
  }
  return {
    ...common,
    provider: {
      provider,
      model: name,
      ...(baseUrl ? { baseUrl } : {}),
      ...(baseUrl ? { apiKey: context.env.OPENAI_API_KEY ?? 'not-needed' } : {}),
    },
  };
}
