import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BoundedOutputCollector, collapseCarriageReturns, hostStorageDir } from '../src/index.js';

function spillIn(): string {
  return join(hostStorageDir(), 'spill', 'test.log');
}

describe('BoundedOutputCollector', () => {
  it('returns small output whole with no spill file at all', () => {
    const path = spillIn();
    const collector = new BoundedOutputCollector({ maxChars: 100, spillPath: path });
    collector.append('hello ');
    collector.append('world\n');
    expect(collector.render({ suffix: '[exit 0]' })).toBe('hello world\n[exit 0]');
    expect(collector.closeSpill()).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    expect(collector.truncated).toBe(false);
  });

  it('keeps a 40/60 head/tail window and tees everything to a lazily opened spill file', () => {
    const path = spillIn();
    let asked = 0;
    const collector = new BoundedOutputCollector({
      maxChars: 1_000,
      spillPath: () => {
        asked += 1;
        return path;
      },
    });
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`);
    for (const line of lines) collector.append(line);
    expect(asked).toBe(1);
    expect(collector.totalChars).toBe(lines.join('').length);
    expect(collector.bufferedChars).toBeLessThanOrEqual(2 * 1_000 + 1_000);
    const suffix = '\n[exit code 0]';
    const rendered = collector.render({ suffix });
    expect(rendered.length).toBeLessThanOrEqual(1_000);
    expect(rendered.startsWith('line 0\nline 1\n')).toBe(true);
    expect(rendered.endsWith(`line 499\n${suffix}`)).toBe(true);
    expect(rendered).toContain(`characters omitted; full output saved to ${path}`);
    const [head = '', tail = ''] = rendered
      .slice(0, -suffix.length)
      .split(/\n\n\[\.\.\. .* \.\.\.\]\n\n/);
    expect(Math.abs(head.length / (head.length + tail.length) - 0.4)).toBeLessThan(0.05);
    expect(collector.closeSpill()).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('always keeps the status suffix, even when it crowds out the output', () => {
    const collector = new BoundedOutputCollector({ maxChars: 50 });
    collector.append('x'.repeat(500));
    const suffix = '\n[timed out after 5 s; the process group was killed]';
    expect(collector.render({ suffix }).endsWith(suffix)).toBe(true);
    const fits = collector.render({ suffix: '\n[exit 1]' });
    expect(fits.length).toBeLessThanOrEqual(50);
    expect(fits.endsWith('\n[exit 1]')).toBe(true);
  });

  it('collapses progress-bar redraws but keeps CRLF line ends', () => {
    expect(collapseCarriageReturns('10%\r50%\r100%\ndone\r\nnext')).toBe('100%\ndone\r\nnext');
    const collector = new BoundedOutputCollector({ maxChars: 100 });
    for (let i = 0; i <= 1_000; i++) collector.append(`progress ${i}\r`);
    collector.append('\nfinished\n');
    const rendered = collector.render();
    expect(rendered).toContain('finished');
    expect(rendered.length).toBeLessThanOrEqual(100);
  });

  it('rejects a nonsensical budget', () => {
    expect(() => new BoundedOutputCollector({ maxChars: 0 })).toThrow(
      /maxChars must be an integer/,
    );
  });
});
