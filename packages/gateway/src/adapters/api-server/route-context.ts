/**
 * What every route of the API server works with: the request (`RouteContext`) and the server's
 * shared parts (`ApiServices`), plus `startTurn`, the one way a route hands a message to the
 * pipeline (it takes a concurrency slot and gives it back when the turn ends).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatMessage } from '@hermes/protocol';
import type { InboundHandler, InboundMessage } from '../../messages.js';
import type { AdapterLog } from './adapter-log.js';
import type { ApiServerSettings } from './api-server-settings.js';
import type { JobsApi } from './jobs-api.js';
import type { ResponseStore } from './response-store.js';
import type { RunRegistry } from './run-registry.js';
import { dispatch, TrackedTurn, type TurnListener } from './tracked-turn.js';
import type { TurnSlots } from './turn-slots.js';

/** One request being answered. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The path's named parts (`:id`). */
  readonly params: Readonly<Record<string, string>>;
  /** Headers every answer to this request carries (CORS for an allowed origin). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborted when the client goes away before its answer is complete, or on disconnect. */
  readonly signal: AbortSignal;
  /** Reads the body (under `max_body_bytes`) and parses it as JSON; 413 / 400 otherwise. */
  json(): Promise<unknown>;
}

/** The server's shared parts. */
export interface ApiServices {
  readonly settings: ApiServerSettings;
  readonly slots: TurnSlots;
  readonly responses: ResponseStore;
  readonly runs: RunRegistry;
  readonly log: AdapterLog;
  /** The `/health` body. */
  health(): unknown;
  /** The pipeline's handler (the server only listens while connected). */
  handler(): InboundHandler;
  /** Aborted when the adapter disconnects. */
  readonly shutdown: AbortSignal;
  /** Turns still running, failed on disconnect. */
  readonly live: Set<TrackedTurn>;
  /** How long a stream's headers wait for the turn to start. */
  readonly headerWaitMs: number;
  /** The scheduled-jobs service behind `/api/jobs`, when the host has one. */
  readonly jobs?: JobsApi;
}

/** A message for the pipeline and what comes with it. */
export interface TurnRequest {
  readonly message: InboundMessage;
  readonly sessionId?: string | undefined;
  readonly history?: readonly ChatMessage[] | undefined;
  readonly listener: TurnListener;
  /** The request's signal (client gone, or disconnect): it stops the turn. Absent for runs. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Hands one message to the pipeline.
 *
 * @throws ApiError 429 when `max_concurrent_runs` turns are already running.
 */
export function startTurn(services: ApiServices, request: TurnRequest): TrackedTurn {
  const release = services.slots.acquire();
  const turn = new TrackedTurn(request.listener);
  services.live.add(turn);
  void turn.done.then(() => {
    services.live.delete(turn);
    release();
  });
  // A request's own signal also aborts on disconnect; a detached run has only shutdown's.
  const signal = request.signal ?? services.shutdown;
  dispatch(
    services.handler(),
    request.message,
    {
      sink: turn,
      signal,
      ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      ...(request.history?.length ? { history: request.history } : {}),
    },
    (error) =>
      services.log.error('api_server: the pipeline threw', {
        messageId: request.message.messageId,
        error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
      }),
  );
  return turn;
}
