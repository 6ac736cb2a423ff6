/**
 * Telling a strategy instance from a {@link StrategyFactory} by shape, not `instanceof`: a plugin
 * may carry its own copy of the seam classes.
 */
import type {
  ContextEngine,
  ContextEngineInit,
  MemoryProvider,
  StrategyFactory,
} from '@hermes/plugin-sdk';
import type { ContextEngineMaker, MemoryProviderMaker } from './registrations.js';

/** A strategy's name and how to make it per agent, or why it cannot be used. */
export type StrategyShape<Maker> =
  | { readonly ok: true; readonly name: string; readonly make: Maker }
  | { readonly ok: false; readonly problem: string };

const MEMORY_METHODS = ['initialize', 'prefetch', 'syncTurn', 'shutdown'] as const;
const ENGINE_METHODS = ['updateFromResponse', 'shouldCompress', 'compress'] as const;

function hasMethods(value: object, methods: readonly string[]): boolean {
  const record = value as Record<string, unknown>;
  return methods.every((m) => typeof record[m] === 'function');
}

function shapeOf<T, Init>(
  value: unknown,
  methods: readonly string[],
  what: string,
): StrategyShape<(init: Init) => T> {
  if (typeof value !== 'object' || value === null) {
    return { ok: false, problem: `${what} must be an object` };
  }
  const name = (value as { name?: unknown }).name;
  if (typeof name !== 'string' || name.trim() === '') {
    return { ok: false, problem: `${what} has no name` };
  }
  if (hasMethods(value, methods)) return { ok: true, name, make: () => value as T };
  const factory = value as Partial<StrategyFactory<T, Init>>;
  if (typeof factory.create === 'function') {
    const create = factory.create.bind(factory);
    return { ok: true, name, make: (init: Init) => create(init) };
  }
  return {
    ok: false,
    problem: `${what} "${name}" is neither an instance (${methods.join(', ')}) nor a factory (create)`,
  };
}

/** A registered memory provider: a shared instance, or a factory called per agent. */
export function memoryProviderShape(value: unknown): StrategyShape<MemoryProviderMaker> {
  return shapeOf<MemoryProvider, void>(value, MEMORY_METHODS, 'memory provider');
}

/** A registered context engine: a shared instance, or a factory called per agent. */
export function contextEngineShape(value: unknown): StrategyShape<ContextEngineMaker> {
  return shapeOf<ContextEngine, ContextEngineInit>(value, ENGINE_METHODS, 'context engine');
}
