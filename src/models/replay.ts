// --replay TRACE: a model that answers each call from a --trace recording (a real model's session, shown without a key) while the tools run live.
//
// The recording is read whole and checked first, so a trace from an older Scout or a hand-edited one fails at
// once with the line, the record and the field. Then each model call of a turn gets the recorded response for
// that call: its text, its tool calls, its stop reason and its usage, as recorded. The tools run on the learner's
// copy of the code; when a live result differs from the recorded one, the step log says so, and the replay
// goes on with the recorded turn. A question that is not the recording's next one, or a call past the recorded
// ones, stops the turn with a message that says what the recording holds.
import fs from "node:fs";
import type { ContentBlock, MessageParam, Model, ModelResponse, Usage } from "../core/loop.js";

/** A recording that cannot be replayed, or a session that left it: the message says which record and why. */
export class ReplayError extends Error {}

interface RecordedCall {
  model: string;
  stopReason: string;
  usage: Usage;
  content: ContentBlock[];
  /** The tool results recorded after this call, in the order of its tool_use blocks. */
  results: { name: string; content: string; isError: boolean }[];
}

interface RecordedTurn {
  question: string;
  line: number;
  calls: RecordedCall[];
}

/** Reads and checks a --trace file: its questions, and for each the model calls and tool results that followed. */
export function loadRecording(file: string): RecordedTurn[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ReplayError(`--replay ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const turns: RecordedTurn[] = [];
  text.split("\n").forEach((raw, index) => {
    if (!raw.trim()) return;
    const where = `${file} line ${index + 1}`;
    let record: Record<string, any>;
    try {
      record = JSON.parse(raw);
    } catch {
      throw new ReplayError(`${where}: not a JSON record`);
    }
    const field = (name: string, ok: boolean, want: string) => {
      if (!ok) throw new ReplayError(`${where} (a ${record.type} record): field "${name}" ${want}`);
    };
    field("type", typeof record?.type === "string", "is missing: every record has a type");
    const turn = turns.at(-1);
    if (record.type === "question") {
      field("text", typeof record.text === "string", "must be the question's text");
      turns.push({ question: record.text, line: index + 1, calls: [] });
    } else if (record.type === "model") {
      field("step", turn !== undefined, "comes before any question record");
      field(
        "content",
        Array.isArray(record.content),
        "must be the model's content blocks (a trace from an older Scout has none)",
      );
      record.content.forEach((block: any, i: number) => {
        const ok =
          (block?.type === "text" && typeof block.text === "string") ||
          (block?.type === "tool_use" &&
            typeof block.id === "string" &&
            typeof block.name === "string" &&
            typeof block.input === "object" &&
            block.input !== null);
        field(`content[${i}]`, ok, "must be a text block {type, text} or a tool_use block {type, id, name, input}");
      });
      field("stopReason", typeof record.stopReason === "string", "must be the recorded stop_reason");
      field(
        "usage",
        typeof record.usage?.input_tokens === "number" && typeof record.usage?.output_tokens === "number",
        "must hold input_tokens and output_tokens as numbers",
      );
      field(
        "step",
        record.step === turn!.calls.length + 1,
        `must be ${turn!.calls.length + 1}, the next model call of the turn`,
      );
      turn!.calls.push({
        model: String(record.model ?? "recorded"),
        stopReason: record.stopReason,
        usage: record.usage,
        content: record.content,
        results: [],
      });
    } else if (record.type === "tool") {
      const call = turn?.calls.at(-1);
      field(
        "step",
        call !== undefined && record.step === turn!.calls.length,
        "must follow the model call that asked for it",
      );
      field("name", typeof record.name === "string", "must be the tool's name");
      field(
        "result",
        typeof record.result?.content === "string" && typeof record.result?.is_error === "boolean",
        "must hold content (a string) and is_error (a boolean)",
      );
      call!.results.push({ name: record.name, content: record.result.content, isError: record.result.is_error });
    }
    // turn and failure records say how a turn ended: the replay does not need them.
  });
  if (!turns.length) throw new ReplayError(`--replay ${file}: no question record in it, so nothing to replay`);
  return turns;
}

/** A Model that answers from the recording; `name` is the recorded model's. */
export function replayModel(turns: RecordedTurn[], notice: (text: string) => void = () => {}): Model {
  let next = 0; // the recorded turn the next new question must match
  let current: RecordedTurn | undefined;
  return {
    name: turns.find((t) => t.calls.length)?.calls[0].model ?? "recorded",
    async createMessage(request, { onText }) {
      const start = request.messages.findLastIndex((m) => m.role === "user" && typeof m.content === "string");
      const asked = String(request.messages[start]?.content ?? "");
      const callIndex = request.messages.slice(start + 1).filter((m) => m.role === "assistant").length;
      if (callIndex === 0) {
        const expected = turns[next];
        if (!expected)
          throw new ReplayError(
            `the recording has no more questions (it held ${turns.length}); nothing to replay for "${asked}"`,
          );
        if (expected.question !== asked)
          throw new ReplayError(
            `this is not the recorded question: the recording's question ${next + 1} (line ${expected.line}) is "${expected.question}"`,
          );
        current = expected;
        next++;
      }
      const recorded = current?.calls[callIndex];
      if (!current || !recorded)
        throw new ReplayError(
          `the recording has ${current?.calls.length ?? 0} model calls for "${asked}" and no call ${callIndex + 1}`,
        );
      const known = new Set(request.tools.map((tool) => tool.name));
      const unknown = recorded.content.find((block) => block.type === "tool_use" && !known.has(block.name));
      if (unknown?.type === "tool_use")
        throw new ReplayError(`the recording asks for the tool ${unknown.name}, which this Scout does not have`);
      const differs = callIndex > 0 ? changedResults(current.calls[callIndex - 1], request.messages.at(-1)) : [];
      // Said in the step log at the step whose result changed, before the recorded call it feeds.
      if (differs.length)
        notice(`(replay: the live ${differs.join(", ")} differs from the recording; going on with the recorded turn)`);
      onText?.(recorded.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
      const response: ModelResponse & { id: string; type: "message"; role: "assistant"; stop_sequence: null } = {
        id: `msg_replay_${next}_${callIndex + 1}`,
        type: "message",
        role: "assistant",
        model: recorded.model,
        content: recorded.content,
        stop_reason: recorded.stopReason as ModelResponse["stop_reason"],
        stop_sequence: null,
        usage: recorded.usage,
      };
      return response;
    },
  };
}

/** The tools whose live results (the last user message) differ from the ones recorded after `call`. */
function changedResults(call: RecordedCall, live: MessageParam | undefined): string[] {
  const results = typeof live?.content === "string" ? [] : (live?.content ?? []);
  const liveResults = results.flatMap((block) =>
    block.type === "tool_result"
      ? [typeof block.content === "string" ? block.content : JSON.stringify(block.content)]
      : [],
  );
  return call.results.flatMap((recorded, i) =>
    liveResults[i] === recorded.content ? [] : [`${recorded.name} result`],
  );
}

/** How a turn the recording stopped is told (one line, then the prompt), or undefined for another error. */
export function replayStopped(error: unknown): string | undefined {
  return error instanceof ReplayError ? `replay: ${error.message}` : undefined;
}
