/**
 * A server's answer that broke off before it was complete: the connection was lost, or its event stream
 * ended in the middle of an event. The server was reached, and a tool it ran may have done its work.
 */
export class CutOffAnswerError extends Error {
  override readonly name = 'CutOffAnswerError';
}
