/** A translated request and the client's fields the target protocol has no place for. */
export interface TranslatedRequest<Body> {
  body: Body;
  /** Names of the dropped fields, e.g. `frequency_penalty` or `messages[].content[type=input_audio]`. */
  droppedFields: string[];
}

/** Collects dropped field names once each, in the order met. */
export class DroppedFields {
  private readonly names = new Set<string>();

  add(name: string): void {
    this.names.add(name);
  }

  list(): string[] {
    return [...this.names];
  }
}
