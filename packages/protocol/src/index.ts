/** Placeholder until this package's issue lands. */
export const packageName = '@hermes/protocol';
