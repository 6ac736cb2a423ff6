import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApprovalContext, ApprovalHandler, CommandApprover } from '@hermes/approval';
import {
  type ExecuteOptions,
  type ExecuteResult,
  ExecutionEnvironment,
  LocalEnvironment,
} from '@hermes/environments';
import type { ApprovalDecision } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processTablePerEnvironment } from '../../src/core/process-table.js';
import { createTerminalTool } from '../../src/core/terminal.js';
import { call, makeContext, text } from './context.js';

/** Would approve anything: proves the hardline floor never even asks. */
class ApproveEverything extends ApprovalHandler {
  readonly asked: string[] = [];
  override async request(
    command: string,
    _reason: string,
    _ctx: ApprovalContext,
  ): Promise<ApprovalDecision> {
    this.asked.push(command);
    return 'once';
  }
}

/** Records commands and never runs them, so a failure of the guard cannot harm the machine. */
class RecordingEnvironment extends ExecutionEnvironment {
  readonly name = 'local';
  readonly executed: string[] = [];
  override async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    this.executed.push(command);
    return {
      output: '',
      exitCode: 0,
      timedOut: false,
      interrupted: false,
      cwd: options.cwd ?? '/',
    };
  }
  override async cleanup(): Promise<void> {}
}

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hermes-hardline-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const terminal = createTerminalTool({ processes: processTablePerEnvironment() });

describe('terminal with the real CommandApprover', () => {
  it.each(['rm -rf /', 'mkfs.ext4 /dev/sda1', ':(){ :|:& };:'])(
    'refuses the hardline command %j: handler never asked, nothing executed',
    async (command) => {
      const handler = new ApproveEverything();
      // Even yolo mode (approvals off) cannot let a hardline command through.
      const approval = new CommandApprover({ yolo: true }, { hermesHome: home, handler });
      const environment = new RecordingEnvironment();
      const ctx = makeContext({ environment, approval, hermesHome: home });
      await expect(call(terminal, { command }, ctx)).rejects.toThrow(/BLOCKED \(hardline\)/);
      await expect(call(terminal, { command, background: true }, ctx)).rejects.toThrow(
        /BLOCKED \(hardline\)/,
      );
      expect(handler.asked).toEqual([]);
      expect(environment.executed).toEqual([]);
    },
  );

  it('runs a harmless command through the real pipeline and the local environment', async () => {
    const handler = new ApproveEverything();
    const approval = new CommandApprover({}, { hermesHome: home, handler });
    const environment = new LocalEnvironment({ cwd: home, loginShellEnv: false });
    try {
      const out = await text(
        call(
          terminal,
          { command: 'echo safe' },
          makeContext({ environment, approval, hermesHome: home }),
        ),
      );
      expect(out).toBe('safe\n[exit code 0]');
      expect(handler.asked).toEqual([]);
    } finally {
      await environment.cleanup();
    }
  });
});
