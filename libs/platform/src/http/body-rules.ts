import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';

export type RequestWithBody = Request & { hasBody?: boolean };

const carriesBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const isJson = (req: Request): boolean =>
  /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '');

/**
 * Spec: a body without `Content-Type: application/json` is not read and answers 400, whatever type
 * it names. Runs before the JSON parser, so nothing else ever parses a body.
 */
export function jsonBodiesOnly(req: RequestWithBody, _res: Response, next: NextFunction): void {
  req.hasBody = carriesBody(req);
  if (req.hasBody && !isJson(req)) {
    next(new DomainError('BAD_REQUEST', 'Send the body as JSON with Content-Type: application/json.'));
    return;
  }
  next();
}

/** Whether a handler declares a `@Body()` parameter; read once per handler. */
const takesBodyCache = new WeakMap<object, boolean>();
function handlerTakesBody(ctx: ExecutionContext): boolean {
  const handler = ctx.getHandler();
  let takes = takesBodyCache.get(handler);
  if (takes === undefined) {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, ctx.getClass(), handler.name) ?? {};
    takes = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
    takesBodyCache.set(handler, takes);
  }
  return takes;
}

/** Spec: a body sent to a route that takes none is refused, `{}` included (INTERFACES.md). */
@Injectable()
export class NoBodyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<RequestWithBody>();
    if (req.hasBody && !handlerTakesBody(ctx)) {
      throw new DomainError('BAD_REQUEST', 'This route takes no body.');
    }
    return true;
  }
}
