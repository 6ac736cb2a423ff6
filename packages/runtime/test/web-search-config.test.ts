/**
 * `web:` in config.yaml: validated with key path and line, and turned into `web_search`'s backend
 * (or the reason there is none, naming the variable to set and never a key's value).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { loadHermesConfig, readWebSection, webSearchChoice } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const KEY = 'bsk-very-secret-brave-key';

function writeConfig(lines: string[]): void {
  writeFileSync(join(home(), 'config.yaml'), `${lines.join('\n')}\n`);
}

async function loadError(): Promise<Error> {
  try {
    await loadHermesConfig({ hermesHome: home(), env: {} });
  } catch (error) {
    expect(isHermesError(error) && error.code).toBe('config.invalid');
    return error as Error;
  }
  throw new Error('expected config.invalid');
}

describe('web: validation', () => {
  it('names an unknown backend by key path and line', async () => {
    writeConfig(['toolsets: [hermes-cli]', 'web:', '  search_backend: google']);
    const error = await loadError();
    expect(error.message).toMatch(/web\.search_backend/);
    expect(error.message).toMatch(/line 3/);
    expect(error.message).toContain('searxng, brave, tavily');
  });

  it('refuses searxng without searxng_url, naming the key to add', async () => {
    writeConfig(['web:', '  search_backend: searxng']);
    const error = await loadError();
    expect(error.message).toContain('web.searxng_url');
    expect(error.message).toContain('needs searxng_url');
  });

  it('warns about a misspelt key with the key meant', async () => {
    writeConfig(['web:', '  search_backend: brave', '  brave_api_key_evn: MY_BRAVE']);
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(config.warnings.join('\n')).toMatch(/web\.brave_api_key_evn.*brave_api_key_env/);
  });

  it('reads the section back for the wiring, with variables substituted', async () => {
    writeConfig(['web:', '  search_backend: searxng', `  searxng_url: ${'$'}{SEARX_URL}`]);
    const config = await loadHermesConfig({
      hermesHome: home(),
      env: { SEARX_URL: 'http://127.0.0.1:9/searx' },
    });
    expect(readWebSection(config)).toMatchObject({
      search_backend: 'searxng',
      searxng_url: 'http://127.0.0.1:9/searx',
    });
  });
});

describe('readWebSection after the file changed', () => {
  it('a section broken since loading is an error naming the key; broken YAML reads as none', async () => {
    writeConfig(['web:', '  search_backend: searxng', '  searxng_url: http://127.0.0.1:9']);
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    writeConfig(['web:', '  search_backend: google']);
    let error: unknown;
    try {
      readWebSection(config);
    } catch (caught) {
      error = caught;
    }
    expect(isHermesError(error) && error.code).toBe('config.web');
    expect((error as Error).message).toContain('web.search_backend');
    writeConfig(['web: [unclosed']);
    expect(readWebSection(config)).toBeUndefined();
  });
});

describe('webSearchChoice', () => {
  it('without search_backend: no backend, and the reason says what to set', () => {
    expect(webSearchChoice(undefined, {})).toEqual({
      problem: 'set web.search_backend (searxng, brave or tavily)',
    });
    expect(webSearchChoice({}, {}).backend).toBeUndefined();
  });

  it('brave without its key names BRAVE_API_KEY; with it, a brave backend', () => {
    const missing = webSearchChoice({ search_backend: 'brave' }, {});
    expect(missing).toEqual({
      problem: 'web.search_backend is brave: set BRAVE_API_KEY (in the environment or .env)',
    });
    const ok = webSearchChoice({ search_backend: 'brave' }, { BRAVE_API_KEY: KEY });
    expect(ok.backend?.name).toBe('brave');
    expect(JSON.stringify(ok)).not.toContain(KEY);
  });

  it('tavily reads the variable web.tavily_api_key_env names, default TAVILY_API_KEY', () => {
    expect(webSearchChoice({ search_backend: 'tavily' }, {})).toMatchObject({
      problem: expect.stringContaining('set TAVILY_API_KEY'),
    });
    const custom = { search_backend: 'tavily' as const, tavily_api_key_env: 'WORK_TAVILY' };
    expect(webSearchChoice(custom, { TAVILY_API_KEY: 'x' })).toMatchObject({
      problem: expect.stringContaining('set WORK_TAVILY'),
    });
    expect(webSearchChoice(custom, { WORK_TAVILY: 'tvly-1' }).backend?.name).toBe('tavily');
  });

  it('searxng needs only its URL', () => {
    const choice = webSearchChoice(
      { search_backend: 'searxng', searxng_url: 'http://127.0.0.1:8888' },
      {},
    );
    expect(choice.backend?.name).toBe('searxng');
  });
});
