import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { DomainError, notFound, validationFailed } from '../errors/domain-error';
import { toErrorBody } from './error-body';
import { STATUS_OF } from '../errors/error-codes';

/** body-parser errors are plain errors with `status` and `type` (see the `http-errors` package). */
const parserError = (type: string, status: number, message = 'parser said so'): Error =>
  Object.assign(new Error(message), { type, status, statusCode: status, expose: true });

describe('toErrorBody', () => {
  describe('domain errors', () => {
    it('maps every code of the table to its status', () => {
      for (const [code, status] of Object.entries(STATUS_OF)) {
        const { body } = toErrorBody(new DomainError(code as keyof typeof STATUS_OF, 'x'));
        expect({ code: body.code, status: body.status }).toEqual({ code, status });
      }
    });

    it('keeps the message and the details', () => {
      const err = new DomainError('API_KEY_SCOPE_MISSING', 'Missing.', { missing: ['crm:write'] });
      expect(toErrorBody(err)).toEqual({
        body: {
          code: 'API_KEY_SCOPE_MISSING',
          message: 'Missing.',
          status: 403,
          details: { missing: ['crm:write'] },
        },
        headers: {},
      });
    });

    it('leaves details out when there are none', () => {
      const { body } = toErrorBody(notFound('Lead'));
      expect(body).toEqual({ code: 'NOT_FOUND', message: 'Lead not found.', status: 404 });
      expect(body).not.toHaveProperty('details');
    });

    it('carries validation issues in details.issues', () => {
      const { body } = toErrorBody(validationFailed([{ path: 'name', message: 'name must be a string' }]));
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.status).toBe(400);
      expect(body.details).toEqual({ issues: [{ path: 'name', message: 'name must be a string' }] });
    });

    it('passes the headers a domain error asks for', () => {
      const err = new DomainError('RATE_LIMITED', 'Slow down.', undefined, { 'Retry-After': '7' });
      expect(toErrorBody(err)).toMatchObject({ body: { status: 429 }, headers: { 'Retry-After': '7' } });
    });
  });

  describe('Nest HTTP exceptions (routing, guards, pipes, body parsing)', () => {
    it('answers an unknown path or method with the fixed message', () => {
      const { body } = toErrorBody(new NotFoundException('Cannot GET /nope'));
      expect(body).toEqual({ code: 'NOT_FOUND', message: 'No such endpoint.', status: 404 });
    });

    it.each([
      [new BadRequestException('Unexpected token } in JSON'), 'BAD_REQUEST', 400],
      [new UnauthorizedException(), 'UNAUTHENTICATED', 401],
      [new ForbiddenException(), 'FORBIDDEN', 403],
      [new PayloadTooLargeException(), 'PAYLOAD_TOO_LARGE', 413],
      [new HttpException('too many', 429), 'RATE_LIMITED', 429],
      [new HttpException('teapot', 418), 'BAD_REQUEST', 400],
      [new InternalServerErrorException('db password is hunter2'), 'INTERNAL', 500],
    ])('%s → %s', (err, code, status) => {
      const { body } = toErrorBody(err);
      expect({ code: body.code, status: body.status }).toEqual({ code, status });
    });

    it('never echoes the exception message', () => {
      const { body } = toErrorBody(new BadRequestException('Unexpected token } in JSON at position 7'));
      expect(body.message).not.toContain('position 7');
    });

    it('turns an upstream 503 into a retryable INTERNAL', () => {
      expect(toErrorBody(new ServiceUnavailableException('redis down'))).toEqual({
        body: { code: 'INTERNAL', message: expect.any(String), status: 503 },
        headers: { 'Retry-After': expect.any(String) },
      });
    });
  });

  describe('body-parser errors', () => {
    it('maps a body over the limit to 413 PAYLOAD_TOO_LARGE', () => {
      const { body } = toErrorBody(parserError('entity.too.large', 413, 'request entity too large'));
      expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    });

    it('maps malformed JSON to 400 BAD_REQUEST', () => {
      const { body } = toErrorBody(parserError('entity.parse.failed', 400, 'Unexpected token'));
      expect(body).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
      expect(body.message).not.toContain('Unexpected token');
    });

    it('maps another 4xx of the parser to BAD_REQUEST', () => {
      const { body } = toErrorBody(parserError('request.aborted', 400));
      expect(body).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    });

    it('answers a JSON body in an unsupported charset with 400, not 415 (415 is for uploads)', () => {
      const { body } = toErrorBody(parserError('charset.unsupported', 415, 'unsupported charset "LATIN1"'));
      expect(body).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    });

    it('keeps a parser 5xx a plain 500', () => {
      const { body } = toErrorBody(
        parserError('stream.encoding.set', 500, 'stream encoding should not be set'),
      );
      expect(body).toMatchObject({ code: 'INTERNAL', status: 500 });
    });
  });

  describe('anything else', () => {
    it('is a 500 INTERNAL without the message or the stack', () => {
      const err = new Error('relation "leads" does not exist at /srv/app/leads.repository.ts:12');
      const rendered = toErrorBody(err);
      expect(rendered).toEqual({
        body: { code: 'INTERNAL', message: expect.any(String), status: 500 },
        headers: {},
      });
      const text = JSON.stringify(rendered);
      expect(text).not.toContain('relation');
      expect(text).not.toContain('leads.repository');
      expect(text).not.toContain(' at ');
    });

    it.each([null, undefined, 'a string', 42, { some: 'object' }])('renders a thrown %p as 500', (thrown) => {
      expect(toErrorBody(thrown).body).toMatchObject({ code: 'INTERNAL', status: 500 });
    });

    it('does not trust a status on an error that is not from the body parser', () => {
      // e.g. an HTTP client's error for an upstream 404: our fault, not "No such endpoint."
      const err = Object.assign(new Error('upstream said 404 for https://internal/secret'), { status: 404 });
      expect(toErrorBody(err).body).toMatchObject({ code: 'INTERNAL', status: 500 });
    });

    it('answers an unreachable database with a retryable 503 INTERNAL', () => {
      const err = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
      const rendered = toErrorBody(err);
      expect(rendered.body).toEqual({ code: 'INTERNAL', message: expect.any(String), status: 503 });
      expect(rendered.headers['Retry-After']).toMatch(/^\d+$/);
      expect(JSON.stringify(rendered)).not.toContain('10.0.0.5');
    });
  });
});
