import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { toErrorBody } from './error-body';
import { REQUEST_ID_HEADER } from './request-id.middleware';

/**
 * Renders every error (domain refusals, guard and pipe failures, unknown routes, body-parser
 * errors) as `{ error: { code, message, status, details? }, requestId }`. A 5xx is logged with the
 * request id and never echoes a stack or an upstream message.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly log = new Logger('HTTP');

  constructor(private readonly config: AppConfig) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    const { body, headers } = toErrorBody(err);
    const requestId = res.getHeader(REQUEST_ID_HEADER);
    if (body.status >= 500) {
      this.log.error(
        {
          requestId,
          method: req.method,
          path: req.path,
          err: err instanceof Error ? err.stack : String(err),
        },
        'request failed',
      );
    }
    if (res.headersSent) return;
    if (body.code === 'UNAUTHENTICATED')
      res.setHeader('WWW-Authenticate', `Bearer realm="${this.config.apiName}"`);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(body.status).json({ error: body, requestId });
  }
}
