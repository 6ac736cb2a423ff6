/**
 * The messages that show one block of a reply in the chat (a streamed answer, a list of tool
 * progress lines): part `i` of the block's text is message `i`, edited in place as it changes.
 */
import type { SendTarget } from '../messages.js';
import type { PlatformAdapter } from '../platform-adapter.js';

interface Shown {
  readonly messageId: string;
  text: string;
}

/** One block's messages, in chat order. */
export class MessageBlock {
  readonly #adapter: PlatformAdapter;
  readonly #target: SendTarget;
  readonly #shown: Shown[] = [];
  #editable = true;

  constructor(adapter: PlatformAdapter, target: SendTarget) {
    this.#adapter = adapter;
    this.#target = target;
  }

  /** Messages sent for this block so far. */
  get size(): number {
    return this.#shown.length;
  }

  /** False once an edit was refused: the block then only grows by new messages. */
  get editable(): boolean {
    return this.#editable;
  }

  /**
   * Streaming update: makes the block show `parts`, editing the messages whose text changed and
   * sending the new ones. Stops (and stops editing for good) when the platform refuses an edit,
   * since sending the text again would repeat it. Throws what the adapter throws.
   *
   * @returns Whether anything was edited or sent.
   */
  async update(parts: readonly string[]): Promise<boolean> {
    let touched = false;
    for (let index = 0; index < parts.length && this.#editable; index++) {
      const text = parts[index] ?? '';
      const shown = this.#shown[index];
      if (shown?.text === text) continue;
      if (shown) {
        if (!(await this.#adapter.edit(this.#target, shown.messageId, text))) {
          this.#editable = false;
          return touched;
        }
        shown.text = text;
      } else {
        await this.#send(text);
      }
      touched = true;
    }
    return touched;
  }

  /**
   * Final placement of part `index`: nothing when the message already shows it, an edit where
   * possible, else a new message (which from then on stands for that part). Throws what the
   * adapter throws.
   */
  async put(index: number, text: string): Promise<void> {
    const shown = this.#shown[index];
    if (shown?.text === text) return;
    if (shown && this.#editable) {
      if (await this.#adapter.edit(this.#target, shown.messageId, text)) {
        shown.text = text;
        return;
      }
      this.#editable = false;
    }
    // Parts after a refused edit go out as new messages, in order, after what the chat shows.
    this.#shown.length = Math.min(this.#shown.length, index);
    await this.#send(text);
  }

  async #send(text: string): Promise<void> {
    const { messageId } = await this.#adapter.send(this.#target, { text });
    this.#shown.push({ messageId, text });
  }
}
