/** Sample data the session-store checks write. Each call returns fresh objects. */
import type { ChatMessage } from '@hermes/protocol';
import type { SessionInit } from '../session-record.js';

/** A session start with every optional field set. */
export function fullSessionInit(id?: string): SessionInit {
  return {
    ...(id === undefined ? {} : { id }),
    source: 'telegram',
    userId: 'user-42',
    sessionKey: 'agent:main:telegram:dm:42',
    chatId: 'chat-7',
    threadId: 'thread-3',
    title: 'Contract session',
    model: 'contract-model',
    provider: 'contract-provider',
    systemPromptHash: 'sha256:abc',
    startedAt: 1_700_000_000_000,
  };
}

/**
 * A short conversation with two parallel tool calls, their results, reasoning fields and an
 * image part: the shapes that most often fail to round-trip.
 */
export function sampleConversation(): ChatMessage[] {
  return [
    { role: 'system', content: 'You are a careful assistant.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this folder and this picture?' },
        {
          type: 'image_url',
          image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        },
      ],
    },
    {
      role: 'assistant',
      content: null,
      reasoning: 'List the folder, then read the notes.',
      reasoning_details: [{ type: 'thinking', text: 'List first.', signature: 'sig-1' }],
      finish_reason: 'tool_calls',
      tool_calls: [
        {
          id: 'call_ls',
          type: 'function',
          function: { name: 'terminal', arguments: '{"command":"ls"}' },
        },
        {
          id: 'call_cat',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"notes.md"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_ls', name: 'terminal', content: 'notes.md\nsrc' },
    {
      role: 'tool',
      tool_call_id: 'call_cat',
      name: 'read_file',
      content: '# Notes\nremember the zebrafish',
    },
    { role: 'assistant', content: 'The folder holds notes.md and src; the picture is a tiny PNG.' },
    { role: 'user', content: 'Thanks. Keep going.' },
  ];
}

/** Queries that break naive full-text engines; every one must run without throwing. */
export const HOSTILE_QUERIES: readonly string[] = [
  'C++',
  '"unterminated',
  '(problem',
  'hello AND',
  '***',
  '{test}',
  'OR hello',
  'NOT',
  'AND OR NOT',
  'a AND OR b',
  'fix OR send NOT (C++)',
  'TODO: fix',
  'chat-send',
  'P2.2',
  '',
  '   ',
  "'; DROP TABLE messages; --",
  '你好',
];
