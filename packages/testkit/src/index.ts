/**
 * @packageDocumentation
 * `@hermes/testkit`: a scripted local model server for tests — real HTTP on 127.0.0.1, the real
 * OpenAI Chat Completions, OpenAI Responses and Anthropic Messages wire protocols, no internet.
 * Write a script of turns (text, reasoning, tool calls, usage, faults) as JSON or with
 * {@link script}, start a server with {@link startScriptedServer}, point any client at it, and
 * assert on what it recorded.
 */
export {
  ScriptBuilder,
  script,
  TurnBuilder,
  TurnEditor,
} from './builder.js';
export { main, type TestkitCliIo, TestkitExitCode } from './cli.js';
export { faults } from './faults.js';
export type { RecordedRequest } from './http/recorded-request.js';
export { DEFAULT_MODEL } from './http/request-facts.js';
export { loadScriptFile, SCRIPT_FILE_ERROR_CODE } from './load-script.js';
export {
  type EncodeContext,
  formatSseFrame,
  type ProtocolEncoder,
  type SseFrame,
} from './protocols/encoder.js';
export { encoderFor, protocolEncoders } from './protocols/index.js';
export { openaiChatEncoder } from './protocols/openai-chat.js';
export * from './protocols/turn-parts.js';
export * from './script.js';
export {
  resolveScript,
  type ScriptedServer,
  type ScriptedServerOptions,
  type ScriptSource,
  startScriptedServer,
} from './server.js';
export { VERSION } from './version.js';
