import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Milliseconds since the request arrived (the request-id middleware notes the time). */
export const elapsedMs = (req: Request): number | undefined => {
  const startedAt = (req as Request & { startedAt?: number }).startedAt;
  return startedAt === undefined ? undefined : Math.round((performance.now() - startedAt) * 10) / 10;
};

/** Spec: every answer carries a service-generated request id; a client-sent value is ignored. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = randomUUID();
  (req as Request & { id: string }).id = id;
  (req as Request & { startedAt: number }).startedAt = performance.now();
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
