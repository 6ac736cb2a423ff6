/**
 * Which wire protocol a model request speaks, from its method and path. OpenAI and Anthropic name
 * the model and streaming in the body; Bedrock and Gemini put the model in the path and choose
 * streaming by the operation's name, so a route may carry both.
 */
import type { WireProtocol } from '../script.js';

/** A model request's protocol, and what its path says about the model and streaming. */
export interface ModelRoute {
  readonly protocol: WireProtocol;
  /** The model named in the path (Bedrock, Gemini), URL-decoded. */
  readonly model?: string;
  /** Whether the path's operation streams (Bedrock, Gemini). */
  readonly stream?: boolean;
}

const FIXED: Readonly<Record<string, WireProtocol>> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/responses': 'openai-responses',
  '/v1/messages': 'anthropic-messages',
};

/** Bedrock: `POST /model/{modelId}/converse` and `/model/{modelId}/converse-stream`. */
const BEDROCK = /^\/model\/([^/]+)\/(converse|converse-stream)$/;
/** Gemini: `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
const GEMINI =
  /^\/(?:v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Every model route, for the 404 that lists them. */
export const MODEL_ROUTES: readonly string[] = [
  ...Object.keys(FIXED),
  '/model/{modelId}/converse',
  '/model/{modelId}/converse-stream',
  '/v1beta/models/{model}:generateContent',
  '/v1beta/models/{model}:streamGenerateContent',
];

/** The model route `POST path` is, or `undefined` when it is none. */
export function modelRoute(method: string, path: string): ModelRoute | undefined {
  if (method !== 'POST') return undefined;
  const fixed = FIXED[path];
  if (fixed) return { protocol: fixed };
  const bedrock = BEDROCK.exec(path);
  if (bedrock) {
    return {
      protocol: 'bedrock-converse',
      model: decodeURIComponent(bedrock[1] ?? ''),
      stream: bedrock[2] === 'converse-stream',
    };
  }
  const gemini = GEMINI.exec(path);
  if (gemini) {
    return {
      protocol: 'gemini',
      model: decodeURIComponent(gemini[1] ?? ''),
      stream: gemini[2] === 'streamGenerateContent',
    };
  }
  return undefined;
}
