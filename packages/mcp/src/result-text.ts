/**
 * Turns MCP results into the text a tool returns. The tool result channel carries text only, so
 * images, audio and binary resources are described (type, size, where to read them) rather than
 * shown; the description says so, so the model does not claim to have seen them.
 */

/** A content block as servers send it (tool results, prompt messages). */
interface Block {
  readonly type: string;
  readonly text?: unknown;
  readonly data?: unknown;
  readonly mimeType?: unknown;
  readonly uri?: unknown;
  readonly name?: unknown;
  readonly resource?: unknown;
}

/** One item of `resources/read` or an embedded resource. */
interface ResourceContents {
  readonly uri?: unknown;
  readonly mimeType?: unknown;
  readonly text?: unknown;
  readonly blob?: unknown;
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 ? value : fallback;
}

/** Renders one resource's contents: its text, or a description of its binary payload. */
export function resourceContentsText(contents: ResourceContents): string {
  const uri = str(contents.uri, '(no uri)');
  const mime = str(contents.mimeType, 'unknown type');
  if (typeof contents.text === 'string') return `[resource ${uri} (${mime})]\n${contents.text}`;
  return `[resource ${uri}: ${mime}, ${base64Bytes(contents.blob)} bytes of binary data, not shown as text]`;
}

/** Renders one content block. */
export function contentBlockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio':
      return `[${block.type}: ${str(block.mimeType, 'unknown type')}, ${base64Bytes(block.data)} bytes; this text only describes it, the image itself is seen only where the host attaches it]`;
    case 'resource':
      return typeof block.resource === 'object' && block.resource !== null
        ? resourceContentsText(block.resource as ResourceContents)
        : '[embedded resource without contents]';
    case 'resource_link':
      return `[resource link: ${str(block.uri, '(no uri)')}${typeof block.name === 'string' ? ` (${block.name})` : ''}; read it with the server's read_resource tool]`;
    default:
      return `[unsupported MCP content of type "${block.type}"]`;
  }
}

/** A `tools/call` result, loosely typed (old servers send `toolResult`). */
export interface ToolCallResultLike {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
  readonly toolResult?: unknown;
}

/** The text of a tool call's result; `isError` results say so up front. */
export function toolResultText(result: ToolCallResultLike, label: string): string {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let text = blocks
    .map(contentBlockText)
    .filter((part) => part.length > 0)
    .join('\n');
  if (text.length === 0 && result.structuredContent !== undefined) {
    text = JSON.stringify(result.structuredContent);
  }
  if (text.length === 0 && result.toolResult !== undefined)
    text = JSON.stringify(result.toolResult);
  if (result.isError === true) {
    return `Error from MCP tool ${label}: ${text.length > 0 ? text : 'no details given'}`;
  }
  return text.length > 0 ? text : '(the tool returned no content)';
}

/** One image a tool returned, as the server sent it (base64). */
export interface McpImage {
  readonly mimeType: string;
  readonly data: string;
}

/**
 * The `data` of a tool result that carried images: the images themselves, so a host whose
 * provider accepts images can attach them. The text still describes each one.
 */
export interface McpToolResultData {
  readonly images: readonly McpImage[];
}

/** The image blocks of a tool result. */
export function toolResultImages(result: ToolCallResultLike): McpImage[] {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  return blocks.flatMap((block) =>
    block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string'
      ? [{ mimeType: block.mimeType, data: block.data }]
      : [],
  );
}

/** A `prompts/get` result rendered as `role: text` lines. */
export function promptText(result: {
  readonly description?: unknown;
  readonly messages?: unknown;
}): string {
  const messages = Array.isArray(result.messages)
    ? (result.messages as { role?: unknown; content?: Block }[])
    : [];
  const lines = messages.map(
    (message) =>
      `${str(message.role, 'user')}: ${message.content ? contentBlockText(message.content) : ''}`,
  );
  const head = typeof result.description === 'string' ? [`${result.description}`] : [];
  return [...head, ...lines].join('\n\n') || '(the prompt has no messages)';
}
