/** A reason the local host cannot start that the person starting it can fix: printed as it is, without a trace. */
export class LocalHostError extends Error {
  override readonly name = 'LocalHostError';
  /** The option that is wrong, when changing it is the fix (`npm start` then exits with 2, as for a malformed one). */
  readonly wrongOption: string | undefined;

  constructor(message: string, options?: ErrorOptions & { wrongOption?: string }) {
    super(message, options);
    this.wrongOption = options?.wrongOption;
  }
}
