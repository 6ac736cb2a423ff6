import { describe, expect, it } from 'vitest';
import { credentialsFromEnv, keyVariablesFor } from '../src/credentials/index.js';

describe('credentialsFromEnv', () => {
  it('reads the base variable, then numbered ones in numeric order', () => {
    const env = {
      OPENAI_API_KEY_10: 'sk-ten',
      OPENAI_API_KEY_2: 'sk-two',
      OPENAI_API_KEY: 'sk-base',
      OPENAI_API_KEY_3: 'sk-three',
      OPENAI_API_KEY_X: 'sk-ignored',
      ANTHROPIC_API_KEY: 'sk-other-provider',
    };
    const found = credentialsFromEnv(env, 'openai');
    expect(found.map((c) => c.label)).toEqual([
      'OPENAI_API_KEY',
      'OPENAI_API_KEY_2',
      'OPENAI_API_KEY_3',
      'OPENAI_API_KEY_10',
    ]);
    expect(found.map((c) => c.apiKey)).toEqual(['sk-base', 'sk-two', 'sk-three', 'sk-ten']);
    expect(found.map((c) => c.source)).toEqual([
      'env:OPENAI_API_KEY',
      'env:OPENAI_API_KEY_2',
      'env:OPENAI_API_KEY_3',
      'env:OPENAI_API_KEY_10',
    ]);
    expect(found.map((c) => c.priority)).toEqual([0, 1, 2, 3]);
  });

  it('splits comma-separated lists, trimming and dropping blanks and repeats', () => {
    const env = { OPENAI_API_KEY: ' sk-a , sk-b,, ', OPENAI_API_KEY_2: 'sk-b,sk-c' };
    const found = credentialsFromEnv(env, 'openai');
    expect(found.map((c) => [c.label, c.apiKey])).toEqual([
      ['OPENAI_API_KEY#1', 'sk-a'],
      ['OPENAI_API_KEY#2', 'sk-b'],
      ['OPENAI_API_KEY_2#2', 'sk-c'],
    ]);
  });

  it('derives variable names from the provider, with a few known aliases', () => {
    expect(keyVariablesFor('openrouter')).toEqual(['OPENROUTER_API_KEY']);
    expect(keyVariablesFor('my-vllm')).toEqual(['MY_VLLM_API_KEY']);
    expect(keyVariablesFor('gemini')).toEqual(['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
    const env = { GOOGLE_API_KEY: 'g-2', GEMINI_API_KEY: 'g-1' };
    expect(credentialsFromEnv(env, 'gemini').map((c) => c.apiKey)).toEqual(['g-1', 'g-2']);
  });

  it('reads explicitly named variables and returns nothing when none is set', () => {
    const env = { TEAM_KEY: 'sk-team', TEAM_KEY_2: 'sk-team-2' };
    expect(credentialsFromEnv(env, 'openai', { variables: ['TEAM_KEY'] })).toHaveLength(2);
    expect(credentialsFromEnv({}, 'openai')).toEqual([]);
    expect(credentialsFromEnv({ OPENAI_API_KEY: '   ' }, 'openai')).toEqual([]);
  });
});
