/**
 * Ready-made faults: every failure a model service is known to produce, worded the way the real
 * services word them, so error classifiers can be tested against realistic bodies. Where OpenAI
 * and Anthropic word or type an error differently, the preset carries both (`byProtocol`) and the
 * server picks the one for the request's protocol.
 */

import { STATUS_CODES } from 'node:http';
import { formatSseFrame } from './protocols/encoder.js';
import { encoderFor } from './protocols/index.js';
import {
  type Fault,
  type HttpFaultWording,
  ScriptTurnSchema,
  type WireProtocol,
} from './script.js';

type HttpFault = Extract<Fault, { kind: 'http' }>;

/** The same wording for both OpenAI protocols (they share one error shape). */
function openai(wording: HttpFaultWording): Partial<Record<WireProtocol, HttpFaultWording>> {
  return { 'openai-chat': wording, 'openai-responses': wording };
}

function http(
  status: number,
  message: string,
  extra: Partial<Omit<HttpFault, 'kind' | 'status' | 'message'>> = {},
): HttpFault {
  return { kind: 'http', status, message, headers: {}, ...extra };
}

/** The nginx page a gateway in front of a model service serves when the upstream fails. */
function htmlPage(status: number): string {
  // nginx spells 504 its own way; other statuses use the standard reason phrase.
  const reason = status === 504 ? 'Gateway Time-out' : (STATUS_CODES[status] ?? 'Error');
  const title = `${status} ${reason}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** A stream of `text` in `protocol` with a frame whose JSON is cut short inserted among the good ones. */
function brokenStream(protocol: WireProtocol, text: string): string {
  const turn = ScriptTurnSchema.parse({ text, chunking: { textChunkSize: 4 } });
  const frames = encoderFor(protocol)
    .stream(turn, {
      model: 'scripted-model',
      includeUsage: false,
      responseId: 'malformed0000',
      created: 1_704_067_200,
    })
    .map(formatSseFrame);
  const at = Math.min(2, frames.length - 1);
  const good = frames[at] ?? 'data: {}\n\n';
  const dataLine = good.split('\n').find((line) => line.startsWith('data: ')) ?? 'data: {}';
  const eventLine = good.split('\n').find((line) => line.startsWith('event: '));
  const broken = `${eventLine ? `${eventLine}\n` : ''}${dataLine.slice(0, Math.ceil(dataLine.length / 2))}\n\n`;
  return [...frames.slice(0, at), broken, ...frames.slice(at)].join('');
}

/** Fault presets; each returns a fresh {@link Fault}. */
export const faults = {
  /** 429 with a `retry-after` header of `retryAfterSeconds`. */
  rateLimited(retryAfterSeconds = 1): HttpFault {
    return http(
      429,
      `Rate limit reached for requests. Please try again in ${retryAfterSeconds}s.`,
      {
        headers: { 'retry-after': String(retryAfterSeconds) },
        byProtocol: {
          ...openai({ errorType: 'requests', errorCode: 'rate_limit_exceeded' }),
          'anthropic-messages': { errorType: 'rate_limit_error' },
        },
      },
    );
  },

  /** 401: the API key was rejected. */
  unauthorized(): HttpFault {
    return http(401, 'Incorrect API key provided.', {
      byProtocol: {
        ...openai({ errorType: 'invalid_request_error', errorCode: 'invalid_api_key' }),
        'anthropic-messages': { message: 'invalid x-api-key', errorType: 'authentication_error' },
      },
    });
  },

  /** 402 for a usage window that resets: "usage limit reached … try again in N minutes". */
  usageLimit(minutes = 5): HttpFault {
    return http(
      402,
      `Usage limit reached for this period. Please try again in ${minutes} minutes.`,
    );
  },

  /** 402: the account is out of credits (not retryable). */
  insufficientCredits(): HttpFault {
    return http(402, 'Insufficient credits. Add more credits to your account to continue.', {
      byProtocol: { 'anthropic-messages': { errorType: 'billing_error' } },
    });
  },

  /** 404: the requested model does not exist. */
  modelNotFound(model = 'scripted-model'): HttpFault {
    return http(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
      byProtocol: {
        ...openai({ errorType: 'invalid_request_error', errorCode: 'model_not_found' }),
        'anthropic-messages': { message: `model: ${model}`, errorType: 'not_found_error' },
      },
    });
  },

  /** 413: the request body is too large. */
  payloadTooLarge(): HttpFault {
    return http(413, 'Request too large: the request body exceeds the maximum allowed size.', {
      byProtocol: {
        'anthropic-messages': {
          message: 'Request exceeds the maximum allowed number of bytes.',
          errorType: 'request_too_large',
        },
      },
    });
  },

  /** 400: the prompt exceeds the context window, in OpenAI's and Anthropic's own words. */
  contextLength(maxTokens = 128_000, promptTokens = maxTokens + 2_048): HttpFault {
    return http(
      400,
      `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
      {
        errorType: 'invalid_request_error',
        byProtocol: {
          ...openai({ errorCode: 'context_length_exceeded' }),
          'anthropic-messages': {
            message: `prompt is too long: ${promptTokens} tokens > ${maxTokens} maximum`,
          },
        },
      },
    );
  },

  /** 400 with `message` and nothing else to recognize it by: the request itself is wrong. */
  badRequest(message = 'Invalid request.'): HttpFault {
    return http(400, message, { errorType: 'invalid_request_error' });
  },

  /** 500: the service failed. */
  serverError(): HttpFault {
    return http(500, 'The server had an error while processing your request. Sorry about that!', {
      byProtocol: {
        'anthropic-messages': { message: 'Internal server error', errorType: 'api_error' },
      },
    });
  },

  /** 503: the service is unavailable. */
  unavailable(): HttpFault {
    return http(503, 'Service unavailable. Please try again later.');
  },

  /** 529: Anthropic's "overloaded" (`overloaded_error`). */
  overloaded(): HttpFault {
    return http(529, 'Overloaded', { errorType: 'overloaded_error' });
  },

  /** 429 that is about capacity, not the caller's quota: "temporarily overloaded". */
  temporarilyOverloaded(): HttpFault {
    return http(429, 'The model is temporarily overloaded. Please try again later.');
  },

  /** Status 200 and headers, then `afterChunks` stream frames, then silence. */
  stall(afterChunks = 0): Fault {
    return { kind: 'stall', afterChunks };
  },

  /** The connection drops after `afterChunks` stream frames (a non-streamed request gets no answer). */
  disconnect(afterChunks = 0): Fault {
    return { kind: 'disconnect', afterChunks };
  },

  /** An HTML error page from a proxy in front of the service (default 502 Bad Gateway). */
  htmlErrorPage(status = 502): Fault {
    return { kind: 'raw', status, contentType: 'text/html', body: htmlPage(status) };
  },

  /** A 200 that claims JSON but whose body is not JSON. */
  nonJson200(body = 'upstream answered: OK (this is not JSON)'): Fault {
    return { kind: 'raw', status: 200, contentType: 'application/json', body };
  },

  /** A 200 event stream in `protocol`'s shape with one frame whose JSON is cut in half. */
  malformedSse(protocol: WireProtocol = 'openai-chat', text = 'Hello from a broken stream'): Fault {
    return {
      kind: 'raw',
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      body: brokenStream(protocol, text),
    };
  },

  /** A response with no body at all (default status 200, `application/json`). */
  emptyBody(status = 200): Fault {
    return { kind: 'raw', status, contentType: 'application/json', body: '' };
  },
} as const;
