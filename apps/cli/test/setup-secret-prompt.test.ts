/** The setup wizard's secret question: no echo on a terminal, backspace edits, pipes unchanged. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { applyBackspaces, createPrompter } from '../src/commands/setup/prompter.ts';

/** A stream that says it is a terminal and records raw-mode switches (as a TTY ReadStream does). */
function fakeTerminal(): PassThrough & {
  isTTY: boolean;
  modes: boolean[];
  setRawMode(on: boolean): void;
} {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    modes: boolean[];
    setRawMode(on: boolean): void;
  };
  stream.isTTY = true;
  stream.modes = [];
  stream.setRawMode = (on: boolean) => {
    stream.modes.push(on);
  };
  return stream;
}

describe('setup prompter, secret answers', () => {
  it('switches a terminal to raw mode (no echo) for the secret only, and applies backspaces', async () => {
    const input = fakeTerminal();
    let out = '';
    const prompter = createPrompter(input, { write: (s: string) => (out += s) });
    const plain = prompter.ask('Model: ');
    input.write('gpt-x\n');
    expect(await plain).toBe('gpt-x');
    expect(input.modes).toEqual([]);
    const secret = prompter.askSecret('API key: ');
    // Raw mode: Enter arrives as CR, backspace as DEL.
    input.write('sk-abcX\u007fd\r');
    expect(await secret).toBe('sk-abcd');
    expect(input.modes).toEqual([true, false]);
    expect(out).toBe('Model: API key: \n');
    expect(out).not.toContain('sk-');
    prompter.close();
  });

  it('reads a piped secret like any answer', async () => {
    const input = new PassThrough();
    const prompter = createPrompter(input, { write: () => undefined });
    input.end('sk-piped\n');
    expect(await prompter.askSecret('API key: ')).toBe('sk-piped');
    prompter.close();
  });

  it('erases with DEL and BS, never past the start', () => {
    expect(applyBackspaces('ab\u007f\u007f\u007fc\bd')).toBe('d');
  });
});
