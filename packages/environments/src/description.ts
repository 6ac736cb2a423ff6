/** What {@link ExecutionEnvironment.describe} reports. */
import { z } from 'zod';

/**
 * A secret-free, JSON-serializable summary of an environment: `backend` (`local`, `sandbox`,
 * `ssh`, `docker`, …) plus whatever else the backend finds worth showing (host, image, cwd).
 */
export const EnvironmentDescriptionSchema = z.looseObject({
  backend: z.string().min(1, 'backend must not be empty'),
});
export type EnvironmentDescription = z.infer<typeof EnvironmentDescriptionSchema>;
