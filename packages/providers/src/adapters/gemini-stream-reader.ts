/**
 * Reads Gemini `GenerateContentResponse`s — the frames of a stream, or the one body of a
 * non-streamed answer — into a {@link StreamAccumulator}. Of each response the first candidate
 * is read, part by part:
 *
 * - `text` with `thought: true` → reasoning deltas; plain `text` → text deltas.
 * - `functionCall` → one whole tool call (Gemini never splits arguments): its id is the wire's
 *   when given, else generated here, so that a thought signature can name the call it came with.
 * - `thoughtSignature` (on any part) → a `reasoning_details` entry of type
 *   {@link THOUGHT_SIGNATURE_DETAIL}, with the call's id when it rode on a call, for replay.
 *
 * `usageMetadata` updates the usage (cumulative: the latest report wins), `finishReason` the
 * finish reason and marks the answer complete; so does `promptFeedback.blockReason` (a blocked
 * prompt gets no candidates at all). An `{"error": …}` frame is a {@link GeminiStreamError}; a
 * frame of another shape is a {@link GeminiProtocolError}.
 */
import type { StreamAccumulator } from '../stream/response-builder.js';
import { defaultToolCallId } from '../stream/tool-call-assembler.js';
import { THOUGHT_SIGNATURE_DETAIL } from './gemini-contents.js';
import {
  GeminiIncompleteStreamError,
  GeminiProtocolError,
  GeminiStreamError,
} from './gemini-errors.js';
import { blockedPromptReason, finishReasonOf } from './gemini-finish-reason.js';
import { usageUpdateOf } from './gemini-usage.js';
import {
  WireErrorBodySchema,
  type WirePart,
  type WireResponse,
  WireResponseSchema,
} from './gemini-wire.js';

function describeIssues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }) {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** One call's reader; feed it every response, then check {@link assertComplete}. */
export class GeminiStreamReader {
  private readonly acc: StreamAccumulator;
  private frames = 0;
  private calls = 0;
  private finished = false;
  /** Which kind of text the last part was, to close a reasoning block when the answer begins. */
  private lastKind: 'thought' | 'text' | undefined;
  /** The model version that answered. */
  model: string | undefined;
  /** The response id. */
  responseId: string | undefined;

  constructor(acc: StreamAccumulator) {
    this.acc = acc;
  }

  /** Reads one frame's payload text (or a whole body): JSON, checked, then applied. */
  handleText(text: string, where: 'stream' | 'body'): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      const what = where === 'stream' ? 'a stream frame' : 'a response body';
      throw new GeminiProtocolError(`The Gemini API sent ${what} that is not JSON.`, {
        cause: error,
      });
    }
    this.handle(raw);
  }

  /** Reads one parsed response of unknown shape. */
  handle(raw: unknown): void {
    this.frames++;
    // Checked only when the key is there: a failed parse builds an issue list, on every frame.
    if (typeof raw === 'object' && raw !== null && 'error' in raw) {
      const failure = WireErrorBodySchema.safeParse(raw);
      if (failure.success) throw new GeminiStreamError(failure.data);
    }
    const parsed = WireResponseSchema.safeParse(raw);
    if (!parsed.success) {
      throw new GeminiProtocolError(
        `The Gemini API sent a malformed response (${describeIssues(parsed.error)}).`,
      );
    }
    this.apply(parsed.data);
  }

  /** Applies one checked response. */
  apply(response: WireResponse): void {
    this.model = response.modelVersion || this.model;
    this.responseId = response.responseId || this.responseId;
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.part(part);
    this.acc.usage(usageUpdateOf(response.usageMetadata));
    if (candidate?.finishReason !== undefined && candidate.finishReason !== '') {
      this.acc.finish(finishReasonOf(candidate.finishReason));
      this.finished = true;
    } else if (response.promptFeedback?.blockReason !== undefined) {
      this.acc.finish(blockedPromptReason());
      this.finished = true;
    }
  }

  /** Throws {@link GeminiIncompleteStreamError} unless a finish reason (or a block) arrived. */
  assertComplete(): void {
    if (!this.finished) throw new GeminiIncompleteStreamError(this.frames);
  }

  private part(part: WirePart): void {
    const call = part.functionCall;
    if (call !== undefined) {
      const id = call.id || defaultToolCallId();
      const key = this.calls++;
      this.acc.toolCallStart(key, { id, name: call.name });
      this.acc.toolCallArgumentsDelta(key, JSON.stringify(call.args ?? {}));
      this.acc.toolCallDone(key);
      this.signature(part.thoughtSignature, id);
      return;
    }
    if (part.text !== undefined && part.text !== '') {
      if (part.thought === true) {
        this.acc.reasoningDelta(part.text);
        this.lastKind = 'thought';
      } else {
        if (this.lastKind === 'thought') this.acc.endReasoning();
        this.acc.textDelta(part.text);
        this.lastKind = 'text';
      }
    }
    this.signature(part.thoughtSignature, undefined);
  }

  private signature(signature: string | undefined, callId: string | undefined): void {
    if (signature === undefined || signature === '') return;
    this.acc.reasoningDetail({
      type: THOUGHT_SIGNATURE_DETAIL,
      signature,
      ...(callId === undefined ? {} : { id: callId }),
    });
  }
}
