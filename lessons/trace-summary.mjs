// Prints a --trace file (one JSON object per line; the record types are listed in src/trace.ts)
// as one line per step, with what each tool result costs: it is sent again with every later model
// call of the turn. A turn that failed shows its question and why.   Usage: node lessons/trace-summary.mjs TRACE.jsonl
import fs from "node:fs";

const events = fs
  .readFileSync(process.argv[2], "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));
const n = (value) => value.toLocaleString("en-US");
let turns = 0;
events.forEach((event, i) => {
  if (event.type === "question") {
    const piped = event.piped_chars ? ` (with ${n(event.piped_chars)} chars of stdin)` : "";
    console.log(`question: ${JSON.stringify(event.text.split("\n")[0])}${piped}`);
  } else if (event.type === "failure" && event.kind !== "step_cap") {
    // (a step cap also ends with a turn record, below)
    console.log(`turn ${++turns} failed (${event.kind}): ${event.message}`);
  } else if (event.type === "model") {
    const messages = `${event.request.messages} message${event.request.messages === 1 ? "" : "s"}`;
    console.log(
      `[${event.n}] model call ${event.step}: sends ${messages}, ${n(event.usage.input_tokens)} input tokens → ${event.stopReason}`,
    );
  } else if (event.type === "tool") {
    // The later model calls of the same turn each carry this result again.
    const end = events.findIndex((e, j) => j > i && (e.type === "turn" || e.type === "failure"));
    const later = events.slice(i + 1, end).filter((e) => e.type === "model").length;
    const { chars, estimated_tokens: tokens, is_error: isError } = event.result;
    console.log(
      `[${event.n}]   ${event.name} ${JSON.stringify(event.input)} → ${n(chars)} chars, ~${n(tokens)} tokens${isError ? " (error)" : ""}, sent again with ${later} later call${later === 1 ? "" : "s"}`,
    );
  } else if (event.type === "turn") {
    const { toolCalls, modelCalls, usage, stopReason } = event.result;
    const end = stopReason === "end_turn" ? "answer" : stopReason;
    console.log(
      `turn ${++turns}: ${[...toolCalls, end].join(" → ")} · ${modelCalls} model calls · ${n(usage.input_tokens)} input tokens in all`,
    );
  }
});
