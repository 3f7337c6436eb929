export type DomainErrorReason = 'not_found' | 'invalid' | 'conflict' | 'rate_limited';

/** A command the domain refuses: `not_found` when its target does not exist, `conflict` when something else holds what it asks for, `rate_limited` when a limit on how often it may be done is reached, `invalid` otherwise. */
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
export const conflict = (message: string) => new DomainError('conflict', message);
export const rateLimited = (message: string) => new DomainError('rate_limited', message);
