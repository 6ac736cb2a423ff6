/**
 * A {@link ModelCatalog} as text lines (the terminal) or JSON (scripts). Shared by `hermes model`
 * and the REPL's `/model`, so both show the same list the same way.
 */
import type { ModelCatalog, ModelRow } from './catalog.js';

/** A context length the way people say it: `200k`, `1M`, `1.05M`; `?` when unknown. */
export function formatContext(tokens: number | undefined): string {
  if (tokens === undefined) return '?';
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(2))}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(tokens);
}

/** The price per million input and output tokens: `$3.00 / $15.00`; empty when unknown. */
export function formatPrice(price: ModelRow['price']): string {
  if (!price) return '';
  const usd = (value: number) => `$${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}`;
  return `${usd(price.input)} / ${usd(price.output)}`;
}

/** Where the list came from, for the heading. */
function sourceWords(catalog: ModelCatalog): string {
  return catalog.source === 'provider' ? 'listed by the provider' : 'from the built-in table';
}

/**
 * The lines of the list: a heading, the problem if the provider could not list, one line per
 * model (`*` marks `current`), and a note when `current` is not among them.
 */
export function catalogLines(catalog: ModelCatalog, current: string | undefined): string[] {
  const lines: string[] = [];
  if (catalog.problem) lines.push(`${catalog.problem}; showing the built-in table instead.`);
  if (catalog.models.length === 0) {
    lines.push(`No models are known for ${catalog.provider}.`);
    return lines;
  }
  lines.push(`Models ${sourceWords(catalog)} (${catalog.models.length}), price per 1M tokens:`);
  const idWidth = Math.max(...catalog.models.map((m) => m.id.length));
  for (const model of catalog.models) {
    const marker = model.id === current ? '*' : ' ';
    const context = formatContext(model.contextLength).padStart(6);
    const price = formatPrice(model.price);
    lines.push(
      `${marker} ${model.id.padEnd(idWidth)}  ${context}${price ? `  ${price}` : ''}`.trimEnd(),
    );
  }
  if (current !== undefined && !catalog.models.some((m) => m.id === current)) {
    lines.push(`(${current} is not in this list.)`);
  }
  return lines;
}

/** The JSON shape of `hermes model list --json`. */
export interface CatalogJson {
  readonly provider: string;
  readonly baseUrl: string | null;
  readonly current: string | null;
  readonly source: ModelCatalog['source'];
  readonly problem: string | null;
  readonly models: readonly {
    readonly id: string;
    readonly contextLength: number | null;
    readonly price: { readonly input: number; readonly output: number } | null;
    readonly current: boolean;
  }[];
}

/** The catalog for scripts: every field present, `null` where unknown. */
export function catalogJson(catalog: ModelCatalog, current: string | undefined): CatalogJson {
  return {
    provider: catalog.provider,
    baseUrl: catalog.baseUrl ?? null,
    current: current ?? null,
    source: catalog.source,
    problem: catalog.problem ?? null,
    models: catalog.models.map((model) => ({
      id: model.id,
      contextLength: model.contextLength ?? null,
      price: model.price ?? null,
      current: model.id === current,
    })),
  };
}

/** Whether `id` is among the catalog's models. */
export function inCatalog(catalog: ModelCatalog, id: string): boolean {
  return catalog.models.some((model) => model.id === id);
}
