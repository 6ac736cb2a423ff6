/**
 * `GET /v1beta/models`: Gemini's model listing, one page holding every scripted model, each
 * able to `generateContent`. Limits are those of the Gemini 2.5 models (1,048,576 in, 65,536
 * out), so clients that read them see realistic numbers.
 */

/** The Gemini listing path the server answers. */
export const GEMINI_MODELS_PATH = '/v1beta/models';

/** The Gemini models list for `models`, as one page without a `nextPageToken`. */
export function geminiModelsList(models: readonly string[]): unknown {
  return {
    models: models.map((id) => ({
      name: `models/${id}`,
      version: '001',
      displayName: id,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ['generateContent', 'countTokens'],
    })),
  };
}
