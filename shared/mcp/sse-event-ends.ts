const LF = 0x0a;
const CR = 0x0d;

/**
 * Finds where complete SSE events end in a byte stream fed chunk by chunk: after a blank line, whatever
 * the line endings (LF, CR, CRLF, a CRLF split between chunks). Bytes, not text: no byte of a multi-byte
 * UTF-8 character is CR or LF. `push` answers the offset in the chunk just after the last event that ends
 * in it, or -1 when none does; what follows belongs to an event still being written.
 */
export function createEventEndFinder(): { push(chunk: Uint8Array): number } {
  let lineEmpty = true;
  let afterCR = false;
  return {
    push(chunk) {
      let end = -1;
      for (let index = 0; index < chunk.length; index += 1) {
        const byte = chunk[index];
        if (afterCR && byte === LF) {
          afterCR = false;
          // The LF of a CRLF that ended an event belongs to that event.
          if (end === index) end = index + 1;
          continue;
        }
        afterCR = byte === CR;
        if (byte !== CR && byte !== LF) {
          lineEmpty = false;
          continue;
        }
        if (lineEmpty) end = index + 1;
        lineEmpty = true;
      }
      return end;
    },
  };
}
