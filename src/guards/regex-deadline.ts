// Runs work that tests a regular expression from outside (a lab set's, a learner's) and stops it after a second.
//
// A regex that backtracks (^(a+)+$ against "aaaa…b") can run for hours, and
// it never yields to the event loop, so no timer can stop it. vm's watchdog
// can: the work runs as a script with a timeout, which interrupts it wherever it is.
import vm from "node:vm";

/** A regular expression from outside tested longer than this is stopped. */
export const REGEX_TIMEOUT_MS = 1_000;

/**
 * The script and the context it runs in, made once: a new context for each call cost ~0.4 ms against
 * ~0.06 ms (22 ms of a lab run's profile over the sample set). `work` itself is this realm's function.
 */
const runWork = new vm.Script("work()");
const workContext = vm.createContext({ work: undefined as (() => unknown) | undefined });

/** Returns what `work` returns, or a failure that says the expression took too long. */
export function stoppable<T>(work: () => T): T | { tooSlow: string } {
  workContext.work = work;
  try {
    return runWork.runInContext(workContext, { timeout: REGEX_TIMEOUT_MS }) as T;
  } catch (error) {
    if ((error as { code?: string } | null)?.code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error; // even `throw null`
    return { tooSlow: `a regular expression ran over ${REGEX_TIMEOUT_MS / 1000} s: it backtracks (nested * or +?)` };
  } finally {
    workContext.work = undefined; // what it holds (a whole file's lines) is not kept past the call
  }
}
