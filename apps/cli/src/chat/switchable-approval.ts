/**
 * The command guard behind `/yolo`: two approvers over the same settings, one with approvals off,
 * and a switch between them. Hardline rules (and the file-write guard's hard blocks) still apply
 * with yolo on, because the yolo approver runs the same pipeline with `yolo: true`.
 */
import {
  type ApprovalHandler,
  type CommandApproval,
  type CommandApprovalOutcome,
  type CommandApprovalRequest,
  CommandApprover,
  loadApprovalSettings,
  type Verdict,
} from '@hermes/approval';
import { type AgentHooks, approvalHookOptions, guardHooks } from '@hermes/loop';

/** A {@link CommandApproval} whose yolo mode can be switched during a session. */
export class SwitchableApproval implements CommandApproval {
  readonly #guarded: CommandApprover;
  readonly #unguarded: CommandApprover;
  /** Approvals off (hardline rules still apply). */
  yolo: boolean;

  /** Reads the `approvals:` settings of `hermesHome`; throws a `ValidationError` for bad ones. */
  constructor(
    hermesHome: string,
    options: {
      readonly yolo: boolean;
      readonly handler?: ApprovalHandler;
      readonly env?: Readonly<Record<string, string | undefined>>;
      /** Plugin hooks: `preApproval` / `postApproval` observe the guard's questions. */
      readonly hooks?: AgentHooks;
    },
  ) {
    const settings = loadApprovalSettings(hermesHome, options.env ? { env: options.env } : {});
    const collaborators = {
      hermesHome,
      ...(options.handler ? { handler: options.handler } : {}),
      ...approvalHookOptions(options.hooks && guardHooks(options.hooks)),
    };
    this.#guarded = new CommandApprover(settings, collaborators);
    this.#unguarded = new CommandApprover({ ...settings, yolo: true }, collaborators);
    this.yolo = options.yolo || settings.yolo;
  }

  approve(command: string, request: CommandApprovalRequest): Promise<CommandApprovalOutcome> {
    return this.#current().approve(command, request);
  }

  checkFileWrite(path: string): Verdict {
    return this.#current().checkFileWrite(path);
  }

  #current(): CommandApprover {
    return this.yolo ? this.#unguarded : this.#guarded;
  }
}
