/** `hermes auth list [provider]`: every key per provider, masked, with its source and health. */
import { ExitCode } from '@hermes/config';
import {
  formatTimeLeft,
  type KeyReportLine,
  type KeyState,
  type ProviderKeyReport,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { keyReports, poolStateFile, readKeySources } from './key-sources.js';

const HEADER = ['#', 'label', 'key', 'source', 'state', 'requests', 'last error'] as const;

/** `ok`, `cooling 4m12s` or `dead`. */
export function stateText(state: KeyState): string {
  if (state.kind === 'cooling') return `cooling ${formatTimeLeft(state.cooldownMs)}`;
  return state.kind;
}

function row(key: KeyReportLine): string[] {
  return [
    String(key.index),
    key.label,
    key.masked,
    key.source,
    stateText(key.state),
    key.requests === undefined ? '-' : String(key.requests),
    key.lastError ?? '-',
  ];
}

/** Columns padded to their widest cell, two spaces apart, indented under the provider. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = HEADER.map((_, column) =>
    Math.max(...rows.map((cells) => (cells[column] ?? '').length)),
  );
  return rows
    .map((cells) =>
      `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
    )
    .join('\n');
}

/** One provider's block: a heading, then the table (or a hint when it has no key). */
export function renderProvider(report: ProviderKeyReport): string {
  const heading = `${report.provider} (strategy ${report.strategy})`;
  if (report.keys.length === 0) {
    return (
      `${heading}\n  no keys: set ${report.variables.join(' or ')}, or run ` +
      `\`hermes auth add ${report.provider}\`\n`
    );
  }
  return `${heading}\n${table([[...HEADER], ...report.keys.map(row)])}\n`;
}

/** Runs `hermes auth list`. */
export function listKeys(provider: string | undefined, ctx: CommandContext): number {
  const sources = readKeySources(ctx);
  if (sources.configBroken) {
    ctx.stderr.write(
      'hermes auth: config.yaml has errors (run `hermes config check`); listing without it\n',
    );
  }
  const reports = keyReports(ctx, sources, provider);
  if (reports.length === 0) {
    ctx.stdout.write(
      'No API keys found (environment, .env, auth.json).\n' +
        'Add one with `hermes auth add <provider>` (e.g. hermes auth add openai), or set ' +
        'OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY, … in .env.\n',
    );
    return ExitCode.ok;
  }
  ctx.stdout.write(reports.map(renderProvider).join('\n'));
  if (reports.every((report) => report.keys.length === 0)) return ExitCode.ok;
  ctx.stdout.write(
    `\nRequests, state and last error come from ${poolStateFile(ctx)}; ` +
      'a key used alone (one environment key) is not tracked there.\n',
  );
  return ExitCode.ok;
}
