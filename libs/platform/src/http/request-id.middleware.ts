import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Spec: every answer carries a service-generated request id; a client-sent value is ignored. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = randomUUID();
  (req as Request & { id: string }).id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
