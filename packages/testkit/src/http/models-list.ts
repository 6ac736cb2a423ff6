/**
 * `GET /v1/models` in the two shapes clients expect: OpenAI's `{object: 'list', data}` and, when
 * the request carries an `anthropic-version` header, Anthropic's paginated list.
 */

/** A fixed creation time (2024-01-01T00:00:00Z), so listings are stable across runs. */
const CREATED_SECONDS = 1_704_067_200;

/** The OpenAI models list for `models`. */
export function openaiModelsList(models: readonly string[]): unknown {
  return {
    object: 'list',
    data: models.map((id) => ({
      id,
      object: 'model',
      created: CREATED_SECONDS,
      owned_by: 'hermes-testkit',
    })),
  };
}

/** The Anthropic models list for `models`: one page holding all of them. */
export function anthropicModelsList(models: readonly string[]): unknown {
  const createdAt = new Date(CREATED_SECONDS * 1000).toISOString();
  return {
    data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: createdAt })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models.at(-1) ?? null,
  };
}
