import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { loggableError } from '../errors/loggable-error';
import type { ErrorBody } from '../errors/error-codes';
import { databaseRefusal } from './database-refusal';
import { toErrorBody } from './error-body';
import { isListingPath, ListingRouteScopes, toLegacyBody } from './error-legacy';
import { AuthedRequest } from '../auth/access.decorators';
import { routeTemplate } from '../metrics/metrics-http';
import { elapsedMs, REQUEST_ID_HEADER } from './request-id.middleware';

/**
 * Renders every error (domain refusals, guard and pipe failures, unknown routes, body-parser
 * errors) as `{ error: { code, message, status, details? }, requestId }` (on the listing families'
 * paths in the legacy shape `{ statusCode, code, message, missingScopes, requiredScopes }`, with
 * the same headers), and logs one line per
 * such answer: a 4xx at info, a 5xx at error with the error's class, SQLSTATE, statement shape and
 * stack frames (never echoed to the client); a value or race the database refused answers 4xx
 * (`databaseRefusal`) and is logged at warn with the same detail. The line names the method, route template, status,
 * code, duration, request id and key id; no credential, no value, no body (`loggableError`).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly log = new Logger('HTTP');
  private readonly listingRoutes: ListingRouteScopes;

  constructor(
    private readonly config: AppConfig,
    modules: ModulesContainer,
  ) {
    this.listingRoutes = new ListingRouteScopes(modules);
  }

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    const refusal = databaseRefusal(err);
    const { body, headers } = toErrorBody(refusal ?? err);
    const requestId = res.getHeader(REQUEST_ID_HEADER);
    const { principal, integration } = req as Request & AuthedRequest;
    const line = {
      requestId,
      method: req.method,
      route: routeTemplate(req),
      path: this.loggedPath(req),
      status: body.status,
      code: body.code,
      durationMs: elapsedMs(req),
      keyId: integration?.keyId ?? (principal?.kind === 'apiKey' ? principal.keyId : undefined),
    };
    if (body.status >= 500) {
      this.log.error({ ...line, err: loggableError(err) }, 'request failed');
    } else if (refusal) {
      this.log.warn({ ...line, err: loggableError(err) }, 'request refused by the database');
    } else {
      this.log.log(line, 'request refused');
    }
    if (res.headersSent) return;
    if (body.code === 'UNAUTHENTICATED')
      res.setHeader('WWW-Authenticate', `Bearer realm="${this.config.apiName}"`);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    this.send(req, res, body, requestId);
  }

  /** The path as logged (a public page logs its template: its token is a secret link). */
  protected loggedPath(req: Request): string {
    return req.path;
  }

  /**
   * Writes the answer: the envelope, or the legacy shape on `/properties*` and
   * `/property-sources*` (a public page's filter answers HTML instead).
   */
  protected send(req: Request, res: Response, body: ErrorBody, requestId: unknown): void {
    if (isListingPath(req.path)) {
      res.status(body.status).json(toLegacyBody(body, this.listingRoutes.scopesOf(req)));
      return;
    }
    res.status(body.status).json({ error: body, requestId });
  }
}
