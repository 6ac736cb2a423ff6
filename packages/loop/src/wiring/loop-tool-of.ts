/**
 * Turns a tool written as a `ToolSpec` (zod parameters + handler) into a {@link LoopTool}: the
 * registry refuses loop-owned names (`memory`, `session_search`, `skills_*`) in generic dispatch,
 * so the loop serves them itself.
 */
import type { ToolContext, ToolHandlerResult, ToolSpec } from '@hermes/tools';
import { z } from 'zod';
import type { LoopTool } from '../tools/loop-toolbox.js';

/**
 * JSON Schemas already converted, by zod schema: tools built per agent from one module-level
 * schema (the `memory` tool) share one converted copy instead of holding one each.
 */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let json = converted.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    converted.set(schema, json);
  }
  return json;
}

/** The loop tool for `spec`; arguments are validated with its zod schema before the handler. */
export function loopToolOf(spec: ToolSpec): LoopTool {
  const schema = spec.parameters instanceof z.ZodType ? spec.parameters : undefined;
  const parameters = schema ? jsonSchemaOf(schema) : (spec.parameters as Record<string, unknown>);
  return {
    schema: {
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters },
    },
    run: async (args: Record<string, unknown>, ctx: ToolContext) => {
      let input: unknown = args;
      if (schema) {
        const parsed = schema.safeParse(args);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new Error(
            `invalid arguments for ${spec.name}: ${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'}`,
          );
        }
        input = parsed.data;
      }
      return textOf(await spec.handler(input as Record<string, unknown>, ctx));
    },
  };
}

function textOf(result: ToolHandlerResult): string {
  return typeof result === 'string' ? result : result.text;
}
