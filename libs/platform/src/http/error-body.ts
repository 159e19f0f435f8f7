import { HttpException, NotFoundException } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { isDependencyUnavailable } from '../errors/unavailable';
import { ErrorBody, ErrorCode, STATUS_OF } from '../errors/error-codes';

export interface RenderedError {
  body: ErrorBody;
  headers: Record<string, string>;
}

const plain = (code: ErrorCode, message: string): RenderedError => ({
  body: { code, message, status: STATUS_OF[code] },
  headers: {},
});

/** Every error that reaches the edge, as the spec's envelope body. Pure: unit-tested on its own. */
export function toErrorBody(err: unknown): RenderedError {
  if (err instanceof DomainError) {
    const body: ErrorBody = { code: err.code, message: err.message, status: STATUS_OF[err.code] };
    if (err.details !== undefined) body.details = err.details;
    return { body, headers: err.headers ?? {} };
  }
  // Nest answers unknown paths and unsupported methods with NotFoundException; our code never throws it.
  if (err instanceof NotFoundException) return plain('NOT_FOUND', 'No such endpoint.');
  if (err instanceof HttpException) return fromStatus(err.getStatus());
  // body-parser errors: plain errors carrying a status and a type (`http-errors`). Only these are
  // trusted for a 4xx; any other error with a `status` (an HTTP client's, say) is our fault.
  const parserError = err as { type?: unknown; status?: unknown } | null;
  if (typeof parserError?.type === 'string' && typeof parserError.status === 'number') {
    if (parserError.type === 'entity.too.large')
      return plain('PAYLOAD_TOO_LARGE', 'The body is larger than 5 MB.');
    if (parserError.type === 'entity.parse.failed')
      return plain('BAD_REQUEST', 'The body is not valid JSON.');
    // unsupported charset or encoding (415 from the parser) included: the body is not read, so 400
    // (INTERFACES.md: 415 is only for upload routes)
    if (parserError.status >= 400 && parserError.status < 500)
      return plain('BAD_REQUEST', 'The body could not be read as JSON.');
  }
  if (isDependencyUnavailable(err)) return unavailable();
  return plain('INTERNAL', 'Internal server error.');
}

const unavailable = (): RenderedError => ({
  body: {
    code: 'INTERNAL',
    message: 'A dependency is briefly unavailable; retry with backoff.',
    status: 503,
  },
  headers: { 'Retry-After': '1' },
});

function fromStatus(status: number): RenderedError {
  if (status === 404) return plain('NOT_FOUND', 'No such endpoint.');
  if (status === 413) return plain('PAYLOAD_TOO_LARGE', 'The body is larger than 5 MB.');
  if (status === 415) return plain('UNSUPPORTED_MEDIA_TYPE', 'Send application/json.');
  if (status === 401) return plain('UNAUTHENTICATED', 'A valid credential is required.');
  if (status === 403) return plain('FORBIDDEN', 'You do not have access to this.');
  if (status === 429) return plain('RATE_LIMITED', 'Too many requests.');
  if (status >= 400 && status < 500) return plain('BAD_REQUEST', 'The request is invalid.');
  if (status === 502 || status === 503) return unavailable();
  return plain('INTERNAL', 'Internal server error.');
}
