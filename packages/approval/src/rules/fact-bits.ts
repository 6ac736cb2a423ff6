/**
 * What one invocation contributes to the facts of its pipeline and of its script: whether it
 * fetches remote content, decodes its input, looks up the agent's processes, or is something
 * other than a shell-setup generator. Computed once per invocation and shared by both.
 */
import type { Invocation } from '../shell/unwrap.js';
import { isAgentLookup, isDecoder, isFetcher } from './carriers.js';

export const FETCHER = 1;
export const DECODER = 2;
export const AGENT_LOOKUP = 4;
export const NOT_ENV_GENERATOR = 8;

/** Tools whose output is shell setup meant for `eval "$(tool …)"`. */
const ENV_GENERATORS = new Set([
  'ssh-agent',
  'pyenv',
  'rbenv',
  'nodenv',
  'direnv',
  'brew',
  'dircolors',
  'keychain',
  'opam',
  'fnm',
  'zoxide',
  'starship',
  'conda',
  'mise',
  'rtx',
  'goenv',
  'jenv',
  'luarocks',
  'gpg-agent',
]);

/** The fact bits of `inv`. */
export function factBits(inv: Invocation): number {
  let bits = ENV_GENERATORS.has(inv.name) ? 0 : NOT_ENV_GENERATOR;
  if (isFetcher(inv)) bits |= FETCHER;
  if (isDecoder(inv)) bits |= DECODER;
  if (isAgentLookup(inv)) bits |= AGENT_LOOKUP;
  return bits;
}
