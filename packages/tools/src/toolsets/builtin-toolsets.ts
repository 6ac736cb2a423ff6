/**
 * The built-in toolsets. Implementation (the registry) is kept apart from exposure (these
 * lists): a toolset names tools, and a tool that is not registered, or not available now, is
 * simply left out when definitions are computed.
 */

/** One toolset: a description for people, the tools it names, and toolsets it includes. */
export interface ToolsetDefinition {
  readonly description: string;
  readonly tools: readonly string[];
  readonly includes: readonly string[];
  /**
   * A platform bundle (`hermes-cli`, `hermes-discord`, …). Disabling one removes only its tools
   * outside the core list, never core tools.
   */
  readonly platform?: boolean;
}

/**
 * Tools every platform shares. Changing this list changes the CLI and every messaging platform
 * at once, which is the point: one place decides what "the agent" can do everywhere.
 */
export const HERMES_CORE_TOOLS: readonly string[] = Object.freeze([
  'web_search',
  'web_extract',
  'terminal',
  'process',
  'read_file',
  'write_file',
  'patch',
  'search_files',
  'vision_analyze',
  'image_generate',
  'skills_list',
  'skill_view',
  'skill_manage',
  'browser_navigate',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_scroll',
  'browser_back',
  'browser_press',
  'browser_get_images',
  'browser_vision',
  'browser_console',
  'browser_cdp',
  'browser_dialog',
  'browser_exec',
  'text_to_speech',
  'todo',
  'memory',
  'session_search',
  'clarify',
  'execute_code',
  'delegate_task',
  'cronjob',
  'ha_list_entities',
  'ha_get_state',
  'ha_list_services',
  'ha_call_service',
  'kanban_show',
  'kanban_list',
  'kanban_complete',
  'kanban_block',
  'kanban_request_review',
  'kanban_request_changes',
  'kanban_heartbeat',
  'kanban_comment',
  'kanban_create',
  'kanban_link',
  'kanban_unblock',
  'kanban_attach',
  'kanban_attach_url',
  'kanban_attachments',
  'computer_use',
]);

/**
 * What a webhook-triggered agent may use. Webhook events can carry untrusted third-party text
 * (a pull-request title, a comment), so the default stays read-only: a prompt injection there
 * cannot reach local files or commands.
 */
export const HERMES_WEBHOOK_SAFE_TOOLS: readonly string[] = Object.freeze([
  'web_search',
  'web_extract',
  'vision_analyze',
  'clarify',
]);

function set(
  description: string,
  tools: readonly string[],
  includes: readonly string[] = [],
): ToolsetDefinition {
  return { description, tools, includes };
}

function platform(description: string, extras: readonly string[] = []): ToolsetDefinition {
  return { description, tools: [...HERMES_CORE_TOOLS, ...extras], includes: [], platform: true };
}

/**
 * Tools a scheduled job never gets (seed 12.4): nobody is there to answer `clarify`, a job must
 * not fan out into subagents (`delegate_task`), and a job that could schedule jobs could make a
 * prompt injection outlive the run that read it (`cronjob`).
 */
export const HERMES_CRON_EXCLUDED_TOOLS: readonly string[] = Object.freeze([
  'clarify',
  'delegate_task',
  'cronjob',
]);

const BROWSER_TOOLS = HERMES_CORE_TOOLS.filter((t) => t.startsWith('browser_'));
const KANBAN_TOOLS = HERMES_CORE_TOOLS.filter((t) => t.startsWith('kanban_'));
const HOME_ASSISTANT_TOOLS = HERMES_CORE_TOOLS.filter((t) => t.startsWith('ha_'));

/** The toolsets Hermes ships with. */
export const BUILTIN_TOOLSETS: Readonly<Record<string, ToolsetDefinition>> = Object.freeze({
  web: set('Web research and content extraction tools', ['web_search', 'web_extract']),
  search: set('Web search only (no content extraction/scraping)', ['web_search']),
  vision: set('Image analysis', ['vision_analyze']),
  video: set('Video analysis (opt-in; not in any default toolset)', ['video_analyze']),
  image_gen: set('Image generation', ['image_generate']),
  terminal: set('Shell commands and background processes', ['terminal', 'process']),
  file: set('Read, write, patch and search files', [
    'read_file',
    'write_file',
    'patch',
    'search_files',
  ]),
  skills: set('List, view and manage skills', ['skills_list', 'skill_view', 'skill_manage']),
  browser: set('Browser automation', BROWSER_TOOLS),
  tts: set('Text to speech', ['text_to_speech']),
  todo: set('Task planning with a todo list', ['todo']),
  memory: set('Long-term memory', ['memory']),
  session_search: set('Search past conversations', ['session_search']),
  clarify: set('Ask the user a clarifying question', ['clarify']),
  code_execution: set('Run a script that can call tools', ['execute_code']),
  delegation: set('Delegate a task to a subagent', ['delegate_task']),
  cronjob: set('Schedule jobs', ['cronjob']),
  homeassistant: set('Home Assistant smart-home control', HOME_ASSISTANT_TOOLS),
  kanban: set('Kanban multi-agent collaboration', KANBAN_TOOLS),
  computer_use: set('Computer use (macOS)', ['computer_use']),
  safe: set('Read-only tools safe for untrusted input', HERMES_WEBHOOK_SAFE_TOOLS),
  'hermes-cli': platform('Everything the interactive CLI offers'),
  'hermes-api-server': platform('Tools for the OpenAI-compatible API server'),
  'hermes-cron': {
    description: 'Tools for scheduled jobs (no clarify, delegate_task or cronjob)',
    tools: HERMES_CORE_TOOLS.filter((tool) => !HERMES_CRON_EXCLUDED_TOOLS.includes(tool)),
    includes: [],
    platform: true,
  },
  'hermes-telegram': platform('Tools for Telegram'),
  'hermes-discord': platform('Tools for Discord', ['discord', 'discord_admin']),
  'hermes-slack': platform('Tools for Slack'),
  'hermes-webhook': {
    description: 'Read-only tools for webhook-triggered runs (untrusted input)',
    tools: HERMES_WEBHOOK_SAFE_TOOLS,
    includes: [],
    platform: true,
  },
});
