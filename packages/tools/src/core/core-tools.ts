/** `coreTools()`: every core tool, wired to one set of options. */
import type { ToolSpec } from '../tool-spec.js';
import { clarifyTool } from './clarify.js';
import type { SurfaceResolver } from './command-gate.js';
import { createExecuteCodeTool, type ExecuteCodeOptions } from './execute-code.js';
import { defaultFileOperations, type FileOperationsProvider } from './file-access.js';
import {
  createImageTool,
  createSpeechTool,
  createVisionTool,
  type ImageBackend,
  type SpeechBackend,
  type VisionBackend,
} from './media.js';
import { createPatchTool } from './patch.js';
import { createProcessTool } from './process.js';
import { type ProcessTableProvider, processTablePerEnvironment } from './process-table.js';
import { createReadFileTool } from './read-file.js';
import { createSearchFilesTool, type SearchFilesOptions } from './search-files.js';
import { createTerminalTool } from './terminal.js';
import { createTodoTool, type TodoStore } from './todo.js';
import { createWebExtractTool, type WebExtractOptions } from './web-extract.js';
import { createWebSearchTool, type WebSearchBackend } from './web-search.js';
import { createWriteFileTool } from './write-file.js';

/** Everything the core tools can be configured with. All optional. */
export interface CoreToolsOptions {
  /** File operations per environment. Default `fileOperationsFor`. */
  readonly files?: FileOperationsProvider;
  /** Background-process tables per environment. Default: one per environment. */
  readonly processes?: ProcessTableProvider;
  /** Who rules on `ask` verdicts for `terminal`. Default: `cron` on cron, else interactive. */
  readonly approvalSurface?: SurfaceResolver;
  /** Characters of terminal output returned. Default 50,000. */
  readonly maxTerminalOutputChars?: number;
  /** Per-session todo lists. Default: a fresh store. */
  readonly todoStore?: TodoStore;
  readonly search?: SearchFilesOptions;
  readonly webExtract?: WebExtractOptions;
  /** Without it `web_search` is hidden. */
  readonly webSearch?: WebSearchBackend;
  /** Without it `vision_analyze` is hidden. */
  readonly vision?: VisionBackend;
  /** Without it `image_generate` is hidden. */
  readonly image?: ImageBackend;
  /** Without it `text_to_speech` is hidden. */
  readonly speech?: SpeechBackend;
  /** Without `executeCode.dispatch`, `execute_code` is hidden. */
  readonly executeCode?: ExecuteCodeOptions;
}

/**
 * The core tools: terminal, process, read_file, write_file, patch, search_files, todo, clarify,
 * execute_code, web_extract, web_search, vision_analyze, image_generate, text_to_speech. Tools
 * whose backend is missing are included with a `checkFn` that hides them.
 */
export function coreTools(options: CoreToolsOptions = {}): ToolSpec[] {
  const files = options.files ?? defaultFileOperations;
  const processes = options.processes ?? processTablePerEnvironment();
  return [
    createTerminalTool({
      processes,
      ...(options.approvalSurface ? { surface: options.approvalSurface } : {}),
      ...(options.maxTerminalOutputChars ? { maxOutputChars: options.maxTerminalOutputChars } : {}),
    }),
    createProcessTool(processes, options.approvalSurface),
    createReadFileTool(files),
    createWriteFileTool(files),
    createPatchTool(files),
    createSearchFilesTool(options.search),
    createTodoTool(options.todoStore),
    clarifyTool,
    createExecuteCodeTool(options.executeCode),
    createWebExtractTool(options.webExtract),
    createWebSearchTool(options.webSearch),
    createVisionTool(options.vision),
    createImageTool(options.image),
    createSpeechTool(options.speech),
  ];
}
