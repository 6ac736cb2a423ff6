/**
 * Hermes message bodies (a string, or OpenAI-style text and `image_url` parts) as Anthropic
 * content blocks.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentPart, MessageContent } from '@hermes/protocol';

/** A text or image block: what a user turn or a tool result can carry. */
export type AnthropicMediaBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

type ImageMediaType = Anthropic.Base64ImageSource['media_type'];

/** The image types the Messages API accepts inline, by the media type a data URL may name. */
const IMAGE_MEDIA_TYPES: Readonly<Record<string, ImageMediaType>> = {
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};

/** `data:<media type>[;params];base64,<data>`; the media type is captured lower-cased later. */
const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),/i;

/** A text block, or nothing for empty text (the API rejects empty text blocks). */
export function textBlocks(text: string): Anthropic.TextBlockParam[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/**
 * An `image_url` as an image block: a base64 `data:` URL becomes a base64 source, an `http(s)`
 * URL a URL source. Anything the API cannot take (another scheme, an unsupported image type, a
 * data URL that is not base64) becomes a short text note instead, so the rest of the
 * conversation still goes through and the model knows an image was there.
 */
export function imageBlock(url: string): AnthropicMediaBlock {
  const data = DATA_URL.exec(url);
  if (data !== null) {
    const mediaType = IMAGE_MEDIA_TYPES[(data[1] ?? '').trim().toLowerCase()];
    const isBase64 = (data[2] ?? '').toLowerCase().split(';').includes('base64');
    if (mediaType !== undefined && isBase64) {
      return {
        type: 'image',
        source: { type: 'base64', media_type: mediaType, data: url.slice(data[0].length) },
      };
    }
    return { type: 'text', text: `[image omitted: unsupported data URL type ${data[1]}]` };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return { type: 'text', text: '[image omitted: only http(s) and data: image URLs are supported]' };
}

function partBlocks(part: ContentPart): AnthropicMediaBlock[] {
  return part.type === 'text' ? textBlocks(part.text) : [imageBlock(part.image_url.url)];
}

/** A message body as text and image blocks, in order; empty text is dropped. */
export function mediaBlocks(content: MessageContent): AnthropicMediaBlock[] {
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap(partBlocks);
}

/**
 * A tool message body as `tool_result` content: a string stays a string (the API's simplest
 * form); parts become text and image blocks.
 */
export function toolResultContent(content: MessageContent): string | AnthropicMediaBlock[] {
  return typeof content === 'string' ? content : content.flatMap(partBlocks);
}
