/**
 * A change command's answer once its change is made: how to read back and describe what it changed. The
 * runner writes the audit entry first and shows the result after, so a failure in reading or describing
 * can never leave a change made but missing from the trail, nor pass for a change not made.
 */
export class ShownAfterChange {
  readonly show: () => Promise<unknown>;

  constructor(show: () => Promise<unknown>) {
    this.show = show;
  }
}

export function showAfterChange(show: () => Promise<unknown>): ShownAfterChange {
  return new ShownAfterChange(show);
}
