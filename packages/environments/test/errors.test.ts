import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  ENVIRONMENT_CONNECTION_ERROR_CODE,
  EnvironmentConnectionError,
  isEnvironmentConnectionError,
} from '../src/index.js';

describe('EnvironmentConnectionError', () => {
  it('is a retryable Hermes error with a stable code and a retry hint', () => {
    const cause = new Error('ECONNRESET');
    const error = new EnvironmentConnectionError('ssh connection to build-box dropped', {
      retryHint: 'the host is rebooting; try again in a minute',
      cause,
    });
    expect(isHermesError(error)).toBe(true);
    expect(isEnvironmentConnectionError(error)).toBe(true);
    expect(error.code).toBe(ENVIRONMENT_CONNECTION_ERROR_CODE);
    expect(error.code).toBe('environment.connection');
    expect(error.name).toBe('EnvironmentConnectionError');
    expect(error.message).toBe('ssh connection to build-box dropped');
    expect(error.retryHint).toBe('the host is rebooting; try again in a minute');
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ retryHint: 'the host is rebooting; try again in a minute' });
  });

  it('defaults to an empty hint and can be marked not retryable', () => {
    const error = new EnvironmentConnectionError('container removed', { retryable: false });
    expect(error.retryHint).toBe('');
    expect(error.retryable).toBe(false);
    expect(error.details).toEqual({});
  });

  it('is told apart from other errors', () => {
    expect(isEnvironmentConnectionError(new Error('environment.connection'))).toBe(false);
    expect(isEnvironmentConnectionError(undefined)).toBe(false);
  });
});
