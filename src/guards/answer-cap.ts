// The most of one API answer Scout reads: a server that streams without end (or one 200 MB delta) is cut off, not held in memory.
//
// The SDK gathers a streamed answer in memory, and Scout then keeps it in the
// history and the trace, so without a bound one answer could cost gigabytes.
// The bound is on the bytes of the HTTP body, counted as they arrive, before
// the SDK parses them: no event, however large, gets past it.

/**
 * Bytes of one API answer, events and all. An answer is at most MAX_OUTPUT_TOKENS (4,096) tokens,
 * which streams as well under 1 MiB; 8 MiB leaves room for any real one.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The error a body over MAX_ANSWER_BYTES ends with (the SDK passes it on as the cause of its own). */
export class AnswerTooLarge extends Error {
  constructor() {
    super(
      `the API's answer passed ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (MAX_ANSWER_BYTES), far more than ${"4,096"} output tokens can be; Scout stopped reading it`,
    );
  }
}

/** The global fetch, with every response body cut off (as an error) past MAX_ANSWER_BYTES. */
export const cappedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.body) return response;
  let total = 0;
  const cap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > MAX_ANSWER_BYTES) controller.error(new AnswerTooLarge());
      else controller.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(cap), { status, statusText, headers });
};
