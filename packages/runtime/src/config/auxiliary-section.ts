/**
 * The `auxiliary:` section of config.yaml: the model each side task uses.
 * (Placeholder schema: filled in by the auxiliary-models work of issue 22.)
 */
import { z } from 'zod';

/** `auxiliary:` as written: slot name → model choice. */
export const AuxiliarySectionSchema = z.looseObject({});
