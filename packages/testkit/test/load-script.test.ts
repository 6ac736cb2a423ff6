/** Loading a script from a JSON file, and the errors a bad file gives. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode, VALIDATION_ERROR_CODE } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { loadScriptFile, SCRIPT_FILE_ERROR_CODE } from '../src/load-script.ts';

function file(name: string, content: string): string {
  const path = join(process.env.HERMES_HOME ?? '', name);
  writeFileSync(path, content);
  return path;
}

async function failure(path: string): Promise<unknown> {
  try {
    await loadScriptFile(path);
  } catch (error) {
    return error;
  }
  throw new Error('expected loadScriptFile to fail');
}

describe('loadScriptFile', () => {
  it('reads a valid script with defaults applied', async () => {
    const path = file('ok.json', JSON.stringify({ turns: [{ text: 'hi' }], models: ['m'] }));
    const loaded = await loadScriptFile(path);
    expect(loaded.models).toEqual(['m']);
    expect(loaded.turns[0]).toMatchObject({ text: 'hi', times: 1, toolCalls: [] });
  });

  it('names the file and the path inside it for an invalid script', async () => {
    const path = file(
      'bad.json',
      JSON.stringify({ turns: [{ text: 'ok' }, { fault: { kind: 'http', status: 200 } }] }),
    );
    const error = await failure(path);
    expect(hasErrorCode(error, VALIDATION_ERROR_CODE)).toBe(true);
    expect(String((error as Error).message)).toContain(path);
    expect(String((error as Error).message)).toContain('turns[1].fault.status');
  });

  it('rejects unknown keys, catching typos', async () => {
    const error = await failure(file('typo.json', JSON.stringify({ turns: [{ txt: 'hi' }] })));
    expect(String((error as Error).message)).toMatch(/turns\[0\].*txt/s);
  });

  it('reports a file that is not JSON', async () => {
    const error = await failure(file('broken.json', '{"turns": ['));
    expect(hasErrorCode(error, SCRIPT_FILE_ERROR_CODE)).toBe(true);
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('reports a missing file', async () => {
    const path = join(process.env.HERMES_HOME ?? '', 'missing.json');
    const error = await failure(path);
    expect(hasErrorCode(error, SCRIPT_FILE_ERROR_CODE)).toBe(true);
    expect((error as Error).message).toContain(path);
  });
});
