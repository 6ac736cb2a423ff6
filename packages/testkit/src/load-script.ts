/** Reading a script from a JSON file, for `hermes-testkit serve --script` and for tests. */
import { readFile } from 'node:fs/promises';
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { type Script, ScriptSchema } from './script.js';

/** The code of the error thrown when a script file cannot be read or is not JSON. */
export const SCRIPT_FILE_ERROR_CODE = 'testkit.script_file';

/**
 * Reads and validates the script in the JSON file at `path`.
 *
 * @throws HermesError with code {@link SCRIPT_FILE_ERROR_CODE} when the file cannot be read or is
 * not JSON; ValidationError (from `@hermes/protocol`) naming the file and each offending path
 * inside it (such as `turns[1].fault.status`) when it is not a valid script.
 */
export async function loadScriptFile(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HermesError(SCRIPT_FILE_ERROR_CODE, `Cannot read script file ${path}: ${reason}`, {
      cause: error,
      details: { path },
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HermesError(
      SCRIPT_FILE_ERROR_CODE,
      `Script file ${path} is not valid JSON: ${reason}`,
      {
        cause: error,
        details: { path },
      },
    );
  }
  return parseOrThrow(
    ScriptSchema,
    data,
    `script file ${path}`,
    'A script is {"turns": [{"text": "…"}, …], "models"?: [...]}; see the @hermes/testkit README.',
  );
}
