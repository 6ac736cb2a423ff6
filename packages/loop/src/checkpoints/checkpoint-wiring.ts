/**
 * Checkpoints attached to an agent built by `createAgent`: a `preToolCall` hook (run before the
 * host's own hooks, never blocking a call) snapshots the working directory before the first
 * file-changing call of each turn, and the handle behind `/rollback [n]`.
 */
import type { Agent } from '../agent.js';
import { AGENT_HOOK_NAMES, type AgentHookName, type AgentHooks } from '../hooks/agent-hooks.js';
import type { CheckpointConfig } from './checkpoint-config.js';
import { type Checkpoint, CheckpointStore, type RollbackResult } from './checkpoint-store.js';
import { isFileChangingCall } from './classify-call.js';
import { measureDir } from './dir-size.js';
import { rollbackAnswer, rollbackNote } from './rollback-text.js';
import { GitMissingError } from './shadow-git.js';

/** What `createAgent` gives the checkpoints. */
export interface CheckpointWiringInput {
  readonly hermesHome: string;
  readonly cwd: string;
  readonly settings: CheckpointConfig;
}

/** The checkpoints of one agent (`CreatedAgent.checkpoints`). */
export interface CheckpointHandle {
  /** Whether checkpoints are taken (`checkpoints.enabled`). */
  readonly enabled: boolean;
  /** The shadow repository of the working directory (under `HERMES_HOME/checkpoints`). */
  readonly shadowDir: string;
  /** The checkpoints of the working directory, newest first. */
  list(): Promise<Checkpoint[]>;
  /** Restores checkpoint `n` (1 = newest); undefined when there is no such checkpoint. */
  rollback(n: number): Promise<RollbackResult | undefined>;
  /** `/rollback [n]`: the whole text answer (the list, or what a rollback did). */
  command(args: string): Promise<string>;
  /** Notices so far (a skipped directory, git missing, a failed snapshot), oldest first. */
  notices(): readonly string[];
  /** Subscribes to notices; returns the unsubscribe function. */
  onNotice(listener: (notice: string) => void): () => void;
  /** Resolves once no snapshot is being taken (tests). */
  idle(): Promise<void>;
}

/** The checkpoint machinery of one agent, with the hooks to compose into the agent's. */
export interface WiredCheckpoints {
  readonly handle: CheckpointHandle;
  /** The checkpoint hooks with the host's `hooks` composed after them. */
  readonly hooks: AgentHooks | undefined;
  /** Starts following the agent's turns (call once the agent exists). */
  attach(agent: Agent): void;
}

/** Builds the checkpoints of an agent and the hooks that take them. */
export function wireCheckpoints(input: CheckpointWiringInput, host?: AgentHooks): WiredCheckpoints {
  const store = new CheckpointStore(input.hermesHome, input.cwd);
  const { settings } = input;
  const noticeLog: string[] = [];
  const listeners = new Set<(notice: string) => void>();
  let turnId = '';
  let checkpointedTurn: string | undefined;
  let gitMissing = false;
  let pendingNote: string | undefined;
  let running: Promise<void> = Promise.resolve();

  const notice = (text: string) => {
    noticeLog.push(text);
    for (const listener of listeners) {
      try {
        listener(text);
      } catch {
        // A listener's failure must not reach the tool call.
      }
    }
  };

  const take = async (toolName: string) => {
    if (gitMissing) return;
    const size = await measureDir(
      store.workTree,
      settings.maxFiles,
      settings.maxBytes,
      store.skipped,
    );
    if (size.over) {
      notice(overLimitNotice(store.workTree, size.over, settings));
      return;
    }
    try {
      await store.snapshot(toolName, turnId);
    } catch (error) {
      if (error instanceof GitMissingError) {
        gitMissing = true;
        notice('Checkpoints are off: git is not on PATH.');
        return;
      }
      notice(`Checkpoint skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const preToolCall: NonNullable<AgentHooks['preToolCall']> = async (p) => {
    if (settings.enabled && isFileChangingCall(p.toolName, p.args)) {
      if (checkpointedTurn !== turnId) {
        // At most one per turn, whatever happens to this one.
        checkpointedTurn = turnId;
        running = take(p.toolName).catch(() => undefined);
      }
      // A write running beside the first one (parallel calls) waits for the snapshot too.
      await running;
    }
    return host?.preToolCall ? host.preToolCall(p) : undefined;
  };

  const preLlmCall: NonNullable<AgentHooks['preLlmCall']> = async (p) => {
    const note = pendingNote;
    pendingNote = undefined;
    const extra = host?.preLlmCall ? await host.preLlmCall(p) : undefined;
    return [note, extra].filter(Boolean).join('\n\n') || undefined;
  };

  const handle: CheckpointHandle = {
    enabled: settings.enabled,
    shadowDir: store.gitDir,
    list: () => store.list(),
    async rollback(n) {
      await running;
      const result = await store.rollback(n);
      if (result) pendingNote = rollbackNote(result);
      return result;
    },
    async command(args) {
      return rollbackAnswer(handle, args, store.workTree, noticeLog.at(-1));
    },
    notices: () => [...noticeLog],
    onNotice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: () => running,
  };
  const hooks = settings.enabled ? composeHooks(host, { preToolCall, preLlmCall }) : host;
  return {
    handle,
    hooks,
    attach(agent) {
      agent.on('turn_start', (event) => {
        turnId = event.turnId;
      });
    },
  };
}

/** The host's hooks (methods bound, so a class instance works) with `mine` replacing theirs. */
function composeHooks(host: AgentHooks | undefined, mine: AgentHooks): AgentHooks {
  const out: Partial<Record<AgentHookName, unknown>> = {};
  for (const name of AGENT_HOOK_NAMES) {
    const member = host?.[name];
    if (typeof member === 'function') out[name] = member.bind(host);
  }
  return { ...(out as AgentHooks), ...mine };
}

function overLimitNotice(cwd: string, over: 'files' | 'bytes', settings: CheckpointConfig): string {
  const limit =
    over === 'files'
      ? `${settings.maxFiles.toLocaleString('en-US')} files`
      : `${Math.round(settings.maxBytes / 1024 / 1024)} MB`;
  return `Checkpoint skipped: ${cwd} is over the limit of ${limit} (checkpoints.${over === 'files' ? 'max_files' : 'max_bytes'}).`;
}
