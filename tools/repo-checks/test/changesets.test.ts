/**
 * Every changeset must parse: `changeset version` refuses the whole release when one file's
 * frontmatter is malformed (a formatter once turned `"@hermes/x": minor` + `---` into a heading).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../../.changeset/', import.meta.url));
const RELEASE_LINE = /^"@hermes\/[a-z0-9-]+": (patch|minor|major)$/;

/** The problem with one changeset file's text, or undefined when it is well formed. */
function changesetProblem(text: string): string | undefined {
  const lines = text.split('\n');
  if (lines[0] !== '---') return 'the first line must be `---`';
  const end = lines.indexOf('---', 1);
  if (end < 0) return 'the frontmatter has no closing `---`';
  const releases = lines.slice(1, end);
  if (releases.length === 0) return 'no package is named';
  const bad = releases.find((line) => !RELEASE_LINE.test(line));
  if (bad !== undefined) return `not a release line: ${JSON.stringify(bad)}`;
  if (
    lines
      .slice(end + 1)
      .join('\n')
      .trim() === ''
  )
    return 'the summary is empty';
  return undefined;
}

describe('changesets', () => {
  it('recognizes the shapes a formatter breaks', () => {
    expect(changesetProblem('---\n"@hermes/state": minor\n---\n\nText.\n')).toBeUndefined();
    expect(changesetProblem('---\n\n## "@hermes/state": minor\n\nText.\n')).toMatch(/closing/);
    expect(changesetProblem('---\n\n"@hermes/state": minor\n---\nText.\n')).toMatch(/release line/);
    expect(changesetProblem('---\n"@hermes/state": minor\n---\n\n')).toMatch(/summary/);
  });

  const files = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md');
  it.each(files)('%s has parseable frontmatter and a summary', (name) => {
    expect(changesetProblem(readFileSync(join(dir, name), 'utf8'))).toBeUndefined();
  });
});
