/**
 * `vision_analyze`, `image_generate` and `text_to_speech`: thin tools over pluggable backends.
 * Each is hidden (its `checkFn` is false) until a backend is configured.
 */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';

/** Analyses an image with a vision-capable model. */
export interface VisionBackend {
  /** `image` is an http(s) URL, a data URL or a local file path, as the model gave it. */
  analyze(request: {
    readonly image: string;
    readonly question: string;
    readonly signal: AbortSignal;
  }): Promise<string>;
}

/** Generates an image; returns where it is (a URL or a file path). */
export interface ImageBackend {
  generate(request: {
    readonly prompt: string;
    readonly aspectRatio: 'landscape' | 'square' | 'portrait';
    readonly signal: AbortSignal;
  }): Promise<{ readonly location: string }>;
}

/** Synthesizes speech into an audio file. */
export interface SpeechBackend {
  synthesize(request: {
    readonly text: string;
    readonly outputPath?: string;
    readonly signal: AbortSignal;
  }): Promise<{ readonly path: string }>;
}

/** Longest text `text_to_speech` accepts in one call. */
export const MAX_TTS_CHARS = 4_000;

const VisionArgsSchema = z.object({
  image_url: z
    .string()
    .trim()
    .min(1, 'image_url must not be empty')
    .describe('Image URL or local file path'),
  question: z
    .string()
    .trim()
    .min(1, 'question must not be empty')
    .describe('What to find out about the image'),
});

const ImageArgsSchema = z.object({
  prompt: z.string().trim().min(1, 'prompt must not be empty').describe('What to draw'),
  aspect_ratio: z.enum(['landscape', 'square', 'portrait']).default('landscape'),
});

const SpeechArgsSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'text must not be empty')
    .max(MAX_TTS_CHARS, `text is limited to ${MAX_TTS_CHARS} characters`),
  output_path: z.string().trim().min(1).optional().describe('Where to save the audio (optional)'),
});

/** Builds `vision_analyze`; hidden without a backend. */
export function createVisionTool(backend?: VisionBackend): ToolSpec {
  return eraseArgs<z.infer<typeof VisionArgsSchema>>({
    name: 'vision_analyze',
    toolset: 'vision',
    emoji: '👁️',
    parallelSafe: true,
    checkFn: () => backend !== undefined,
    description: 'Look at an image (URL or local path) and answer a question about it.',
    parameters: VisionArgsSchema,
    handler: async (args, ctx) => {
      if (!backend) throw new Error('vision_analyze has no backend configured.');
      const analysis = await backend.analyze({
        image: args.image_url,
        question: args.question,
        signal: ctx.signal,
      });
      return JSON.stringify({ success: true, analysis });
    },
  });
}

/** Builds `image_generate`; hidden without a backend. */
export function createImageTool(backend?: ImageBackend): ToolSpec {
  return eraseArgs<z.infer<typeof ImageArgsSchema>>({
    name: 'image_generate',
    toolset: 'image_gen',
    emoji: '🎨',
    checkFn: () => backend !== undefined,
    description: 'Generate an image from a text prompt. Returns its URL or file path.',
    parameters: ImageArgsSchema,
    handler: async (args, ctx) => {
      if (!backend) throw new Error('image_generate has no backend configured.');
      const image = await backend.generate({
        prompt: args.prompt,
        aspectRatio: args.aspect_ratio,
        signal: ctx.signal,
      });
      return JSON.stringify({ success: true, image: image.location });
    },
  });
}

/** Builds `text_to_speech`; hidden without a backend. */
export function createSpeechTool(backend?: SpeechBackend): ToolSpec {
  return eraseArgs<z.infer<typeof SpeechArgsSchema>>({
    name: 'text_to_speech',
    toolset: 'tts',
    emoji: '🔊',
    checkFn: () => backend !== undefined,
    description:
      'Turn text into spoken audio. Returns the audio file path and a MEDIA: tag for delivery.',
    parameters: SpeechArgsSchema,
    handler: async (args, ctx) => {
      if (!backend) throw new Error('text_to_speech has no backend configured.');
      const audio = await backend.synthesize({
        text: args.text,
        ...(args.output_path === undefined ? {} : { outputPath: args.output_path }),
        signal: ctx.signal,
      });
      return JSON.stringify({
        success: true,
        file_path: audio.path,
        media_tag: `MEDIA:${audio.path}`,
      });
    },
  });
}
