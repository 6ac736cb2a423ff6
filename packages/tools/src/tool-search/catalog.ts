/**
 * The catalog of hidden tools shown in `tool_search`'s description. It degrades as the budget
 * shrinks: names with a one-line description, then names only, then a count per server (toolset).
 */

/** One hidden tool as the catalog lists it. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  /** Its toolset, usually one per MCP server or plugin. */
  readonly group: string;
}

/** How much detail the catalog could afford. */
export type CatalogLevel = 'full' | 'names' | 'counts';

/** A rendered catalog. */
export interface ToolCatalog {
  readonly level: CatalogLevel;
  readonly text: string;
}

/** Rough token count of text: four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The first sentence of a description, at most 100 characters, on one line. */
export function summarize(description: string): string {
  const line = description.replace(/\s+/g, ' ').trim();
  const sentence = line.match(/^.*?[.!?](?:\s|$)/)?.[0]?.trim() ?? line;
  return sentence.length > 100 ? `${sentence.slice(0, 99)}…` : sentence;
}

function byGroup(entries: readonly CatalogEntry[]): Map<string, CatalogEntry[]> {
  const groups = new Map<string, CatalogEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.group) ?? [];
    list.push(entry);
    groups.set(entry.group, list);
  }
  return groups;
}

function renderFull(groups: Map<string, CatalogEntry[]>): string {
  const lines: string[] = [];
  for (const [group, list] of groups) {
    lines.push(`[${group}]`);
    for (const e of list) lines.push(`- ${e.name}: ${summarize(e.description)}`);
  }
  return lines.join('\n');
}

function renderNames(groups: Map<string, CatalogEntry[]>): string {
  return [...groups]
    .map(([group, list]) => `[${group}] ${list.map((e) => e.name).join(', ')}`)
    .join('\n');
}

function renderCounts(groups: Map<string, CatalogEntry[]>): string {
  return [...groups].map(([group, list]) => `${group}: ${list.length} tools`).join('\n');
}

/**
 * Renders the richest catalog that fits `budgetTokens`; the per-group counts are always
 * returned, even over budget, because the model must at least know what to search for.
 */
export function buildToolCatalog(
  entries: readonly CatalogEntry[],
  budgetTokens: number,
): ToolCatalog {
  const groups = byGroup(entries);
  const full = renderFull(groups);
  if (estimateTokens(full) <= budgetTokens) return { level: 'full', text: full };
  const names = renderNames(groups);
  if (estimateTokens(names) <= budgetTokens) return { level: 'names', text: names };
  return { level: 'counts', text: renderCounts(groups) };
}
