export type DomainErrorReason = 'not_found' | 'invalid';

/** A command the domain refuses: `not_found` when its target does not exist, `invalid` otherwise. */
export class DomainError extends Error {
  constructor(
    readonly reason: DomainErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const invalid = (message: string) => new DomainError('invalid', message);
