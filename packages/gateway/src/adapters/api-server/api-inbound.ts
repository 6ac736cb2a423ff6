/**
 * How an HTTP request becomes one inbound message: platform `api_server`, a chat per session or
 * per request, user `api` (or the OpenAI `user` field), always a direct conversation.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Attachment, InboundMessage } from '../../messages.js';
import { ApiError } from './api-error.js';

/** The platform name the API server stamps on its messages. */
export const API_SERVER_PLATFORM = 'api_server';

/** The user id of a request that names none. */
export const DEFAULT_API_USER = 'api';

/** The header that continues a stored session, echoed on answers. */
export const SESSION_HEADER = 'x-hermes-session-id';

/** A fresh id such as `chatcmpl-3f…`: a random UUID's 122 bits, as 32 hex digits. */
export function newId(prefix: string): string {
  // randomUUID draws from a cached entropy pool: far cheaper per id than randomBytes.
  return `${prefix}${randomUUID().replaceAll('-', '')}`;
}

/** The facts of one inbound message the routes decide. */
export interface ApiMessageFacts {
  readonly chatId: string;
  readonly userId?: string | undefined;
  readonly text: string;
  readonly attachments?: readonly Attachment[];
  readonly messageId: string;
}

/** Builds the inbound message of one request. */
export function apiMessage(facts: ApiMessageFacts): InboundMessage {
  return {
    platform: API_SERVER_PLATFORM,
    chatId: facts.chatId,
    userId: facts.userId ?? DEFAULT_API_USER,
    text: facts.text,
    ...(facts.attachments?.length ? { attachments: [...facts.attachments] } : {}),
    messageId: facts.messageId,
    receivedAt: Date.now(),
    isDirect: true,
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The `X-Hermes-Session-Id` of a request, when it sends one.
 *
 * @throws ApiError 400 for an id over 256 characters or with control characters.
 */
export function requestedSessionId(req: IncomingMessage): string | undefined {
  const raw = req.headers[SESSION_HEADER];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (value.length > 256 || CONTROL.test(value)) {
    throw new ApiError(400, 'X-Hermes-Session-Id must be at most 256 printable characters.', {
      param: 'X-Hermes-Session-Id',
      code: 'invalid_session_id',
    });
  }
  return value;
}
