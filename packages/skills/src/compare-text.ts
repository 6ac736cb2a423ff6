/**
 * Orders strings by UTF-16 code units. Not `localeCompare`: its first call loads the ICU
 * collator, about 9 ms of every CLI start, and skill names and paths need no locale.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
