/** The clear texts a failed MCP request returns to the model instead of a stack trace. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe } from './connect-client.js';
import { McpServerUnavailableError } from './server-connection.js';

/** Which request failed, for the message. */
export interface FailedRequest {
  readonly server: string;
  /** The server's tool name, or the utility's action (`read_resource`, …). */
  readonly what: string;
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal;
  /** The failure made the connection reconnect. */
  readonly reconnecting?: boolean;
}

/** Turns whatever a request threw into one line the model can act on. */
export function failedRequestText(error: unknown, request: FailedRequest): string {
  const { server, what, timeoutSeconds, signal } = request;
  if (signal.aborted) {
    return `Cancelled: the call to ${what} on MCP server "${server}" was interrupted, and the request was cancelled.`;
  }
  if (error instanceof McpServerUnavailableError) {
    return `Error: ${error.message}; ${what} could not be called. Try again later or use another tool.`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `Error: ${what} on MCP server "${server}" timed out after ${timeoutSeconds} s (the server's \`timeout\`); the request was cancelled.`;
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return `Error: MCP server "${server}" closed the connection during ${what}; it is reconnecting. The call may or may not have taken effect.`;
  }
  const after = request.reconnecting
    ? '; the connection looks lost, so it is reconnecting — try again shortly'
    : '';
  return `Error: ${what} on MCP server "${server}" failed: ${describe(error)}${after}`;
}
