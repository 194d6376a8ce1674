// The session: one conversation's history, and how each question becomes one turn of the loop.
//
// Every mode (the terminal, piped stdin, -p) asks through a Conversation; what prints or counts listens.
import { type MessageParam, runTurn, type TurnOptions, type TurnResult } from "./loop.js";
import { tools } from "./scout.js";

/** What every turn of a conversation shares: the model and workspace, and the tools (Scout's four by default). */
export type Setup = Omit<TurnOptions, "tools" | "signal" | "onStep" | "onText"> & {
  tools?: TurnOptions["tools"];
  /** Another loop with runTurn's signature (a learner's: `scout --loop FILE`). */
  loop?: typeof runTurn;
};

/** Where a turn's events go, and the signal that cancels it (Ctrl-C). */
export type Listeners = Pick<TurnOptions, "signal" | "onStep" | "onText">;

export class Conversation {
  constructor(
    readonly setup: Setup,
    /** Every message so far (a resumed session's, or none); a turn that fails leaves it as it was. */
    public history: MessageParam[] = [],
  ) {}

  /** Runs one turn of the loop on the history. */
  ask(question: string, listeners: Listeners = {}): Promise<TurnResult> {
    const { loop = runTurn, tools: given = tools, ...shared } = this.setup;
    return loop(question, this.history, { ...shared, tools: given, ...listeners });
  }

  /** Forgets the conversation: /clear. */
  clear(): void {
    this.history = [];
  }
}
