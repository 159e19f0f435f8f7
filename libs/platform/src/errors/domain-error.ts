import { ErrorCode, ValidationIssue } from './error-codes';

/** A refusal with one of the spec's codes; the envelope filter turns it into the HTTP answer. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Headers the answer must carry (Retry-After on 429, for one). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** `<Resource> not found.`; the same answer whether the record is absent or out of reach. */
export const notFound = (resource: string): DomainError =>
  new DomainError('NOT_FOUND', `${resource} not found.`);

export const validationFailed = (issues: ValidationIssue[]): DomainError =>
  new DomainError('VALIDATION_FAILED', 'The request has invalid or missing fields.', { issues });

export const forbidden = (message = 'You do not have access to this.'): DomainError =>
  new DomainError('FORBIDDEN', message);

export const conflict = (message: string): DomainError => new DomainError('CONFLICT', message);

export const unauthenticated = (message = 'A valid credential is required.'): DomainError =>
  new DomainError('UNAUTHENTICATED', message);

/** The key door could not look a key up (its database did not answer): 503 with `Retry-After: 1`, never a 500. */
export const authUnavailable = (message: string): DomainError =>
  new DomainError('AUTH_UNAVAILABLE', message, undefined, { 'Retry-After': '1' });

/** A dependency (the database, Redis) did not answer: 503 INTERNAL, retry with backoff. */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
}
