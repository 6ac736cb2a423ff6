/** The fallback chain: the next provider and model to try when the current one fails. */
export * from './fallback-config.js';
export * from './fallback-policy.js';
export * from './fallback-provider.js';
