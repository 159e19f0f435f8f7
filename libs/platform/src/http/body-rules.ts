import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { NextFunction, Request, Response } from 'express';
import { DomainError, validationFailed } from '../errors/domain-error';
import { MULTIPART_UPLOAD } from './multipart';

export type RequestWithBody = Request & {
  hasBody?: boolean;
  /** A body that is not `application/json`: never parsed; `NoBodyGuard` answers for it. */
  bodyNotJson?: boolean;
};

const carriesBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const isJson = (req: Request): boolean =>
  /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '');

const notJson = () =>
  new DomainError('BAD_REQUEST', 'Send the body as JSON with Content-Type: application/json.');

/**
 * Spec: a body without `Content-Type: application/json` is not read and answers 400, whatever type
 * it names. Runs before the JSON parser, so nothing else ever parses a body. The refusal itself is
 * `NoBodyGuard`'s, which knows the route: a `@MultipartUpload()` route reads a multipart body and
 * answers anything else with 415 (INTERFACES.md), every other route answers 400.
 */
export function jsonBodiesOnly(req: RequestWithBody, _res: Response, next: NextFunction): void {
  req.hasBody = carriesBody(req);
  req.bodyNotJson = req.hasBody && !isJson(req);
  next();
}

/** Deepest nesting a JSON body may have; the top-level object or array counts as one. */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects and arrays deeper than `max` levels; a loop, so any depth is safe. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Runs right after the JSON parser: a body nested deeper than MAX_BODY_DEPTH is refused before the
 * validation pipe or class-transformer walk it (both recurse, and 10,000 levels overflow the stack).
 */
export function bodyDepthLimit(req: Request, _res: Response, next: NextFunction): void {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    next(
      validationFailed([{ path: '', message: `body must not nest deeper than ${MAX_BODY_DEPTH} levels` }]),
    );
    return;
  }
  next();
}

/** zlib's and brotli's own errors: they carry no HTTP status, so they would answer 500. */
const isInflateError = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR__ERROR_FORMAT|ERR_BROTLI|ERR_ZLIB)/.test(code);
};

/**
 * Runs right after the JSON parser, as an error handler: a `Content-Encoding: gzip`, `deflate` or
 * `br` body that does not inflate is the caller's mistake (400 BAD_REQUEST), not ours.
 */
export function undecodableBody(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  next(isInflateError(err) ? new DomainError('BAD_REQUEST', 'The body could not be decompressed.') : err);
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

/**
 * Spec: a body that is not JSON is refused with 400 (upload routes: their interceptor answers 415
 * for anything but multipart), and a body sent to a route that takes none, `{}` included
 * (INTERFACES.md).
 */
@Injectable()
export class NoBodyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<RequestWithBody>();
    if (req.bodyNotJson && !Reflect.getMetadata(MULTIPART_UPLOAD.KEY, ctx.getHandler())) throw notJson();
    if (req.hasBody && !handlerTakesBody(ctx)) {
      throw new DomainError('BAD_REQUEST', 'This route takes no body.');
    }
    return true;
  }
}
