/**
 * The analyser judges each command as soon as the parser has read it, skips the rules for inert
 * commands, and checks only the floor past a parser limit. These tests pin down that those
 * shortcuts never change an answer: the shortcut and the exhaustive analysis agree on the whole
 * corpus and on generated combinations of it, and here-documents, pipelines interrupted by
 * subshells and oversized commands are still judged in full.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, checkCommand } from '../src/index.ts';

const dir = fileURLToPath(new URL('./corpus', import.meta.url));
const corpus: string[] = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .flatMap((name) =>
    (JSON.parse(readFileSync(join(dir, name), 'utf8')) as Array<{ command: string }>).map(
      (c) => c.command,
    ),
  );

const paths = { home: '/home/tester', hermesHome: '/home/tester/.hermes' };
const ctx = { home: paths.home, hermesHome: paths.hermesHome, saveBlockedScripts: false };

/** A reproducible pseudo-random sequence (mulberry32). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Corpus commands joined by operators, inside substitutions and subshells, behind wrappers. */
function combinations(count: number): string[] {
  const random = sequence(5);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const joins = [' ; ', ' | ', ' && ', '\n', ' | (', ') | ', ' $(', ' `', ' <(', ' "'];
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    let command = pick(corpus);
    for (let parts = 1 + Math.floor(random() * 3); parts > 1; parts -= 1) {
      command += pick(joins) + pick(corpus);
    }
    out.push(random() < 0.2 ? `sudo bash -c '${command}'` : command);
  }
  return out;
}

describe('streaming analysis', () => {
  it('agrees with the exhaustive analysis on every corpus command and combination', () => {
    const differences: string[] = [];
    for (const command of [...corpus, ...combinations(1500)]) {
      const fast = analyzeCommand(command, paths);
      const full = analyzeCommand(command, paths, { exhaustive: true });
      if (JSON.stringify(fast) !== JSON.stringify(full)) differences.push(command);
    }
    expect(differences).toEqual([]);
  });

  it('finds something in most combinations, so the agreement above means something', () => {
    const commands = combinations(300);
    const flagged = commands.filter((c) => analyzeCommand(c, paths).findings.length > 0);
    expect(flagged.length).toBeGreaterThan(commands.length / 2);
  });

  it('judges a command fed a here-document only once the body has been read', () => {
    expect(checkCommand('bash <<EOF; echo hi\nrm -rf /\nEOF', ctx).stage).toBe('hardline');
    expect(checkCommand('cat <<A; bash <<B\nx\nA\nrm -rf /\nB\n', ctx).stage).toBe('hardline');
    expect(checkCommand('psql <<EOF | cat\nDROP TABLE x;\nEOF', ctx).patternKey).toBe('sql_drop');
  });

  it('keeps a pipeline together across a subshell in the middle of it', () => {
    expect(checkCommand('curl -s x | (a; b) | sh', ctx).patternKey).toBe('remote_to_shell');
    expect(checkCommand(`curl -s x${' | cat'.repeat(20)} | sh`, ctx).patternKey).toBe(
      'remote_to_shell',
    );
  });

  it('links a group to the pipeline around it, also while a here-document holds commands back', () => {
    expect(checkCommand("(cat <<'EOF'\nrm -rf /\nEOF\n) | sh", ctx).stage).toBe('hardline');
    expect(checkCommand("{ cat <<'A'; echo ls; } | sh\nrm -rf /\nA", ctx).stage).toBe('hardline');
    expect(checkCommand("cat <<'A' | (sh)\nrm -rf /\nA", ctx).stage).toBe('hardline');
    expect(checkCommand('echo $( (echo "rm -rf /") | sh )', ctx).stage).toBe('hardline');
    // The here-document goes to the group's own stdout, not into the shell after it.
    expect(checkCommand("echo ls | (cat <<'B'; sh)\nrm -rf /\nB", ctx).stage).toBe('no_match');
  });

  it('still finds a floor hit in a command refused by a parser limit', () => {
    // Over Hermes's segment limit (it counts separators inside quotes too), in two commands.
    const many = `echo '${'x|'.repeat(25_001)}';`;
    expect(checkCommand(`${many} echo pw | sudo -S ls`, ctx).stage).toBe('sudo_stdin');
    expect(checkCommand(`${many} curl x | sh`, ctx).stage).toBe('parser_limit');
    expect(checkCommand(`rm -rf / ${'a'.repeat(5000)}`, ctx).stage).toBe('hardline');
    expect(checkCommand(`bash -c 'rm -rf ~' ${'a'.repeat(5000)}`, ctx).stage).toBe('hardline');
  });
});
