/** Markdown → Slack mrkdwn. */
import { describe, expect, it } from 'vitest';
import { renderMrkdwn } from '../src/index.ts';

describe('renderMrkdwn', () => {
  it('rewrites emphasis, strike-through, links, headings and bullets', () => {
    expect(renderMrkdwn('**bold** and *italic* and ~~gone~~')).toBe(
      '*bold* and _italic_ and ~gone~',
    );
    expect(renderMrkdwn('see [the docs](https://example.com/a?b=1&c=2)')).toBe(
      'see <https://example.com/a?b=1&amp;c=2|the docs>',
    );
    expect(renderMrkdwn('## Plan\n- one\n* two')).toBe('*Plan*\n• one\n• two');
  });

  it('escapes &, < and > so Slack shows them instead of reading markup', () => {
    expect(renderMrkdwn('a < b && c > d <!channel>')).toBe(
      'a &lt; b &amp;&amp; c &gt; d &lt;!channel&gt;',
    );
  });

  it('leaves code as written apart from escaping, and drops the fence language', () => {
    expect(renderMrkdwn('run `a **b** <c>` now')).toBe('run `a **b** &lt;c&gt;` now');
    expect(renderMrkdwn('```ts\nconst x = a && *b*;\n```')).toBe(
      '```const x = a &amp;&amp; *b*;\n```',
    );
  });

  it('keeps snake_case words and lone asterisks alone', () => {
    expect(renderMrkdwn('use snake_case_name and 2 * 3 * 4')).toBe(
      'use snake_case_name and 2 * 3 * 4',
    );
  });
});
