/** The error every refused or failed `hermes plugins` action raises. */
import { HermesError } from '@hermes/protocol';

/** The code of a refused or failed `hermes plugins` action. */
export const PLUGIN_REFUSED_CODE = 'plugins.refused';

/** A refused or failed `hermes plugins` action; `message` says what was wrong and what to do. */
export function pluginRefusal(message: string): HermesError {
  return new HermesError(PLUGIN_REFUSED_CODE, message);
}
