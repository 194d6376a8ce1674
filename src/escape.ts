// Makes text safe to print for a person: control characters become visible escapes.
//
// A file name, a file's content, the model's text or an API error can hold
// terminal control sequences: ESC [2J clears the screen, ESC ] 52 writes the
// clipboard, ESC ] 0 sets the window title, ESC ] 8 hides a link behind text.
// Printed raw, they act; escaped, they are just characters to read. Newline
// and tab are kept, since they are how text is laid out. Every character is
// escaped on its own, so text streamed in chunks can be escaped chunk by
// chunk: no escape is ever split between two chunks.

/** C0 controls except tab and newline, DEL, and the C1 controls (0x9b is a one-byte CSI to some terminals). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `\x1b[2J` printed as the seven characters `\x1b[2J`; everything else unchanged. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
