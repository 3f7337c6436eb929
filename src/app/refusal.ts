/**
 * A request the application refuses before anything is decided: not allowed (403, with the code the
 * access rules give), out of reach or missing (404), or asking for something it may not (400). The
 * status is the access rules' own (src/domain/access: `authorize` answers one); every edge answers
 * it as it answers an HttpError (src/web/errors.ts), which is one.
 */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export const badInput = (message: string) => new Refusal(400, message);
