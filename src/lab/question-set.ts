// Loading a question set: the JSON file read and checked field by field, its workspace found, and each
// location given as a line pattern turned into the line numbers it matches today.
//
// A location is "path:line" or "path:/regex/". The second form is what keeps
// a set true while the code moves: "app.py:/^def main/" means whichever line
// of app.py matches, worked out when the set is loaded.
// A pattern that matches no line is an error, so a set whose code has
// changed under it says so instead of grading answers wrong.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PersonFileError, readPersonFile } from "../person-file.js";
import { stoppable } from "../guards/regex-deadline.js";
import { Workspace } from "../core/workspace.js";
import type { LabQuestion } from "./questions.js";

/** Largest question set file read, and most questions in one: a set is hand-written. */
export const MAX_SET_BYTES = 1024 * 1024;
export const MAX_QUESTIONS = 200;
/** Longest question, in characters. */
export const MAX_QUESTION_CHARS = 2000;
/** Largest file a "path:/regex/" location is looked up in. */
export const MAX_LOCATION_FILE_BYTES = 4 * 1024 * 1024;

export interface QuestionSet {
  /** The set's file, as given. */
  file: string;
  /** What the set is about, one line (optional in the file). */
  title: string;
  /** The workspace root, absolute. */
  workspace: string;
  /** The questions, each location resolved to "path:line". */
  questions: LabQuestion[];
}

/** A set that cannot be used: the CLI prints the message and exits 2. */
export class QuestionSetError extends Error {}

const SET_FIELDS = ["title", "workspace", "questions"];
const QUESTION_FIELDS = ["id", "question", "expect"];
const EXPECT_FIELDS = ["locations", "pattern"];

/** Reads and checks a set; `cwd`, when given, is the workspace instead of the file's own. */
export function loadQuestionSet(file: string, cwd?: string): QuestionSet {
  const fail = (message: string): never => {
    throw new QuestionSetError(`${file}: ${message}`);
  };
  const text = readFile(file, MAX_SET_BYTES);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    fail(`not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(data)) return fail('expected a JSON object with "questions" (and "workspace", "title")');
  unknownField(data, SET_FIELDS, "the set", fail);
  if (data.title !== undefined && typeof data.title !== "string") fail('"title" must be a string');
  if (data.workspace !== undefined && typeof data.workspace !== "string") fail('"workspace" must be a string');

  const workspace = openSetWorkspace(file, data.workspace as string | undefined, cwd, fail);

  if (!Array.isArray(data.questions) || data.questions.length === 0) fail('"questions" must be a non-empty array');
  const list = data.questions as unknown[];
  if (list.length > MAX_QUESTIONS) fail(`${list.length} questions; a set holds at most ${MAX_QUESTIONS}`);
  const ids = new Set<string>();
  const questions = list.map((raw, index) => {
    const name = isObject(raw) && typeof raw.id === "string" ? `question "${raw.id}"` : `question #${index + 1}`;
    const bad = (field: string, problem: string): never => fail(`${name}: "${field}" ${problem}`);
    if (!isObject(raw)) return bad("", "must be an object with id, question and expect");
    unknownField(raw, QUESTION_FIELDS, name, fail);
    if (typeof raw.id !== "string" || !/^[\w.-]{1,80}$/.test(raw.id))
      bad("id", "must be a string of 1–80 letters, digits, _ . or -");
    if (ids.has(raw.id as string)) bad("id", "is used by an earlier question too");
    ids.add(raw.id as string);
    if (typeof raw.question !== "string" || raw.question.trim() === "") bad("question", "must be a non-empty string");
    if ((raw.question as string).length > MAX_QUESTION_CHARS)
      bad("question", `is over ${MAX_QUESTION_CHARS} characters`);
    if (!isObject(raw.expect)) return bad("expect", "must be an object with locations and/or pattern");
    const expect = raw.expect;
    unknownField(expect, EXPECT_FIELDS, `${name}, "expect",`, fail);
    if (expect.locations === undefined && expect.pattern === undefined)
      bad("expect", "needs locations, pattern or both");
    let locations: string[] | undefined;
    if (expect.locations !== undefined) {
      if (!Array.isArray(expect.locations) || expect.locations.length === 0)
        bad("expect.locations", 'must be a non-empty array of "path:line" or "path:/regex/"');
      locations = (expect.locations as unknown[]).flatMap((location, i) => {
        const resolved = resolveLocation(workspace, location);
        return typeof resolved === "string" ? bad(`expect.locations[${i}]`, resolved) : resolved;
      });
    }
    if (expect.pattern !== undefined) {
      if (typeof expect.pattern !== "string")
        bad("expect.pattern", "must be a string (a JavaScript regular expression)");
      try {
        new RegExp(expect.pattern as string);
      } catch (error) {
        bad("expect.pattern", `is not a valid regular expression: ${(error as Error).message}`);
      }
    }
    return {
      id: raw.id as string,
      question: raw.question as string,
      expect: {
        ...(locations ? { locations } : {}),
        ...(expect.pattern !== undefined ? { pattern: expect.pattern as string } : {}),
      },
    };
  });
  return { file, title: (data.title as string | undefined) ?? "", workspace: workspace.root, questions };
}

/**
 * The set's workspace, under --cwd's rules (a directory, not inside a protected folder), each error
 * naming the field. The set's own "workspace" may not be the root of the file system or the home
 * folder: a set is shared, and the agent would search everything; --cwd can still ask for either.
 */
function openSetWorkspace(
  file: string,
  field: string | undefined,
  cwd: string | undefined,
  fail: (message: string) => never,
): Workspace {
  const where = cwd !== undefined ? `--cwd ${cwd}` : `"workspace" ${JSON.stringify(field ?? ".")}`;
  const root = cwd ?? path.resolve(path.dirname(file), field ?? ".");
  if (!fs.existsSync(root)) fail(`${where}: no such directory (tried ${root})`);
  if (!fs.statSync(root).isDirectory()) fail(`${where}: not a directory (tried ${root})`);
  let workspace: Workspace;
  try {
    workspace = new Workspace(root);
  } catch (error) {
    return fail(`${where}: ${(error as Error).message}`); // inside ~/.aws or .git
  }
  if (cwd === undefined && (workspace.root === path.parse(workspace.root).root || workspace.root === realHome()))
    fail(
      `${where} is ${workspace.root === realHome() ? "your home folder" : "the root of the file system"} (${workspace.root}); a set's workspace is a code folder (pass --cwd to run there anyway)`,
    );
  return workspace;
}

function realHome(): string {
  try {
    return fs.realpathSync(os.homedir());
  } catch {
    return os.homedir();
  }
}

/** The set, or a file it names, read as a person's file (a regular file, never blocking, at most `maxBytes`). */
function readFile(file: string, maxBytes: number): string {
  try {
    return readPersonFile(file, { option: "", maxBytes });
  } catch (error) {
    if (error instanceof PersonFileError) throw new QuestionSetError(error.message);
    throw error;
  }
}

/**
 * "path:12" as it is (the file must exist in the workspace); "path:/regex/" as every line of
 * the file that matches. Returns the locations, or what is wrong with this one.
 */
function resolveLocation(workspace: Workspace, location: unknown): string[] | string {
  if (typeof location !== "string") return `must be a string, got ${JSON.stringify(location)}`;
  const match = /^(.+?):(?:(\d+)|\/(.+)\/)$/.exec(location);
  if (!match) return `must be "path:line" or "path:/regex/", got ${JSON.stringify(location)}`;
  const [, file, line, pattern] = match;
  const resolved = workspace.resolveInWorkspace(file);
  if (!resolved.ok) return `${JSON.stringify(location)}: ${resolved.error}`;
  if (!fs.existsSync(resolved.abs) || !fs.statSync(resolved.abs).isFile())
    return `${JSON.stringify(location)}: no such file in the workspace`;
  if (fs.statSync(resolved.abs).size > MAX_LOCATION_FILE_BYTES)
    return `${JSON.stringify(location)}: ${file} is over ${MAX_LOCATION_FILE_BYTES} bytes`;
  const text = readFile(resolved.abs, MAX_LOCATION_FILE_BYTES);
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop(); // "a\nb\n" is two lines, not three
  if (line !== undefined) {
    if (Number(line) < 1) return `${JSON.stringify(location)}: line numbers start at 1`;
    if (Number(line) > lines.length)
      return `${JSON.stringify(location)}: ${file} has ${lines.length} line${lines.length === 1 ? "" : "s"}`;
    return [`${resolved.rel}:${Number(line)}`];
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return `${JSON.stringify(location)}: not a valid regular expression: ${(error as Error).message}`;
  }
  // The set's regex against the file's lines: stopped after a second, since one that backtracks runs for hours.
  const found = stoppable(() => lines.flatMap((text, i) => (regex.test(text) ? [`${resolved.rel}:${i + 1}`] : [])));
  if ("tooSlow" in found) return `${JSON.stringify(location)}: ${found.tooSlow}`;
  return found.length ? found : `${JSON.stringify(location)}: no line of ${file} matches /${pattern}/`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unknownField(object: Record<string, unknown>, known: string[], where: string, fail: (m: string) => never) {
  const unknown = Object.keys(object).find((key) => !known.includes(key));
  if (unknown !== undefined) fail(`${where}: unknown field "${unknown}"; known: ${known.join(", ")}`);
}
