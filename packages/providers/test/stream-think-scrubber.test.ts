/** The think-block scrubber: what is visible, what is reasoning, whatever the chunking. */
import { describe, expect, it } from 'vitest';
import { scrubThinkBlocks, ThinkScrubber } from '../src/stream/index.js';

interface Outcome {
  visible: string;
  /** Reasoning blocks, each block's pieces joined. */
  blocks: string[];
}

/** Feeds `chunks` to a fresh scrubber, flushes, and records what came out. */
function scrub(chunks: readonly string[]): Outcome {
  const visible: string[] = [];
  const blocks: string[] = [];
  let current: string[] = [];
  let emptyPieces = 0;
  const scrubber = new ThinkScrubber({
    visible: (text) => {
      if (text === '') emptyPieces++;
      visible.push(text);
    },
    reasoning: (text) => {
      if (text === '') emptyPieces++;
      current.push(text);
    },
    reasoningEnd: () => {
      blocks.push(current.join(''));
      current = [];
    },
  });
  for (const chunk of chunks) scrubber.feed(chunk);
  scrubber.flush();
  expect(current).toEqual([]);
  expect(emptyPieces, 'the sink never receives an empty piece').toBe(0);
  return { visible: visible.join(''), blocks };
}

interface Fixture {
  readonly name: string;
  readonly input: string;
  readonly visible: string;
  readonly blocks: readonly string[];
}

const fixtures: readonly Fixture[] = [
  {
    name: 'a leading think block',
    input: '<think>Plan: add.</think>\n\nThe sum is 4.',
    visible: 'The sum is 4.',
    blocks: ['Plan: add.'],
  },
  {
    name: 'every variant and letter case, each at a line start',
    input:
      '<THINK>a</THINK>x\n<Thinking>b</thinking>y\n<thought>c</THOUGHT>z\n' +
      '<reasoning>d</reasoning>w\n<REASONING_SCRATCHPAD>e</REASONING_SCRATCHPAD>v',
    visible: 'x\ny\nz\nw\nv',
    blocks: ['a', 'b', 'c', 'd', 'e'],
  },
  {
    name: 'a block after text on its own line, indented',
    input: 'Intro line.\n   <think>\nhidden\n</think>  \nAnswer.',
    visible: 'Intro line.\n   Answer.',
    blocks: ['\nhidden\n'],
  },
  {
    name: 'ordinary angle brackets',
    input: 'if a < b and x<3 then <div>ok</div> <thinker> <think > <think/> </ b> <>',
    visible: 'if a < b and x<3 then <div>ok</div> <thinker> <think > <think/> </ b> <>',
    blocks: [],
  },
  {
    name: 'an opening tag mid-line stays prose; its orphan close is dropped',
    input: 'Qwen writes <think> first, then </think> closes it.',
    visible: 'Qwen writes <think> first, then closes it.',
    blocks: [],
  },
  {
    name: 'an orphan closing tag (the template opened the block) and the blank lines after it',
    input: 'reasoning leaked</think>\n\nAnswer',
    visible: 'reasoning leakedAnswer',
    blocks: [],
  },
  {
    name: 'an unclosed block at the end stays reasoning',
    input: 'Visible.\n<think>still thinking when the tokens ran out',
    visible: 'Visible.\n',
    blocks: ['still thinking when the tokens ran out'],
  },
  {
    name: 'a nested block ends at the first closing tag',
    input: '<think>outer <think>inner</think> tail</think>after',
    visible: 'tailafter',
    blocks: ['outer <think>inner'],
  },
  {
    name: 'angle brackets inside a block are reasoning',
    input: '<think>compare a < b and <b>bold</b></think>done',
    visible: 'done',
    blocks: ['compare a < b and <b>bold</b>'],
  },
  {
    name: 'consecutive blocks and a mismatched closing tag',
    input: '<think>one</think><thinking>two</reasoning>three',
    visible: 'three',
    blocks: ['one', 'two'],
  },
  {
    name: 'a held tail at the end is released as text',
    input: 'ends with </thin',
    visible: 'ends with </thin',
    blocks: [],
  },
  {
    name: 'an empty block',
    input: '<think></think>Answer',
    visible: 'Answer',
    blocks: [''],
  },
];

describe('ThinkScrubber', () => {
  for (const fixture of fixtures) {
    it(`${fixture.name}: same result for every single cut`, () => {
      expect(scrub([fixture.input])).toEqual({
        visible: fixture.visible,
        blocks: fixture.blocks,
      });
      for (let cut = 0; cut <= fixture.input.length; cut++) {
        const outcome = scrub([fixture.input.slice(0, cut), fixture.input.slice(cut)]);
        expect(outcome, `cut at ${cut}`).toEqual({
          visible: fixture.visible,
          blocks: fixture.blocks,
        });
      }
    });

    it(`${fixture.name}: same result one character at a time and for two cuts`, () => {
      expect(scrub([...fixture.input])).toEqual({
        visible: fixture.visible,
        blocks: fixture.blocks,
      });
      const text = fixture.input;
      for (let a = 1; a < text.length; a += 3) {
        for (let b = a; b <= text.length; b += 2) {
          const outcome = scrub([text.slice(0, a), text.slice(a, b), text.slice(b)]);
          expect(outcome.visible, `cuts at ${a}, ${b}`).toBe(fixture.visible);
          expect(outcome.blocks, `cuts at ${a}, ${b}`).toEqual(fixture.blocks);
        }
      }
    });
  }

  it('holds back only a tail that may still become a tag, and releases it when it cannot', () => {
    const visible: string[] = [];
    const scrubber = new ThinkScrubber({
      visible: (text) => visible.push(text),
      reasoning: () => undefined,
      reasoningEnd: () => undefined,
    });
    scrubber.feed('a <');
    expect(visible.join('')).toBe('a ');
    scrubber.feed(' b');
    expect(visible.join('')).toBe('a < b');
    scrubber.feed(' so x<');
    expect(visible.join('')).toBe('a < b so x');
    scrubber.feed('3 and, mid-line, <thi');
    // Mid-line an opening tag is prose, so `<thi` cannot act: nothing is held.
    expect(visible.join('')).toBe('a < b so x<3 and, mid-line, <thi');
    scrubber.feed('\n</reas');
    expect(visible.join('')).toBe('a < b so x<3 and, mid-line, <thi\n');
    scrubber.feed('ons are>');
    expect(visible.join('')).toBe('a < b so x<3 and, mid-line, <thi\n</reasons are>');
  });

  it('routes reasoning as it streams, before the block closes', () => {
    const events: string[] = [];
    const scrubber = new ThinkScrubber({
      visible: (text) => events.push(`v:${text}`),
      reasoning: (text) => events.push(`r:${text}`),
      reasoningEnd: () => events.push('end'),
    });
    scrubber.feed('<thi');
    expect(events).toEqual([]);
    scrubber.feed('nk>step one, ');
    expect(scrubber.insideBlock).toBe(true);
    scrubber.feed('step two</');
    scrubber.feed('think>\nDone.');
    expect(events).toEqual(['r:step one, ', 'r:step two', 'end', 'v:Done.']);
    expect(scrubber.insideBlock).toBe(false);
  });

  it('is reusable after flush', () => {
    const visible: string[] = [];
    const scrubber = new ThinkScrubber({
      visible: (text) => visible.push(text),
      reasoning: () => undefined,
      reasoningEnd: () => undefined,
    });
    scrubber.feed('mid-line text');
    scrubber.flush();
    scrubber.feed('<think>x</think>y');
    scrubber.flush();
    expect(visible.join('')).toBe('mid-line texty');
  });

  it('scrubThinkBlocks splits a finished string and joins blocks with a blank line', () => {
    expect(scrubThinkBlocks('<think>a</think>\n<think>b</think>Answer')).toEqual({
      visible: 'Answer',
      reasoning: 'a\n\nb',
    });
    expect(scrubThinkBlocks('plain <b>text</b>')).toEqual({
      visible: 'plain <b>text</b>',
      reasoning: '',
    });
  });

  it('handles a long stream with many angle brackets', () => {
    const line = 'for (i = 0; i < n; i++) a[i] = b<c ? <T>x : y;\n';
    const input = `<think>${'reason '.repeat(5_000)}</think>${line.repeat(5_000)}`;
    const chunks: string[] = [];
    for (let i = 0; i < input.length; i += 7) chunks.push(input.slice(i, i + 7));
    const outcome = scrub(chunks);
    expect(outcome.visible).toBe(line.repeat(5_000));
    expect(outcome.blocks).toEqual(['reason '.repeat(5_000)]);
  });
});
