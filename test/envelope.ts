import type { Response } from 'supertest';

/**
 * The spec's envelope: `{ error: { code, message, status, details? }, requestId }` with requestId
 * equal to the X-Request-Id header. `details` is compared when given, else only its shape.
 */
export function expectError(res: Response, status: number, code: string, details?: unknown): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  const requestId = res.headers['x-request-id'];
  expect(requestId).toEqual(expect.any(String));
  expect(Object.keys(res.body).sort()).toEqual(['error', 'requestId']);
  expect(res.body.requestId).toBe(requestId);
  const { details: actual, ...rest } = res.body.error;
  expect(rest).toEqual({ code, message: expect.any(String), status });
  if (details !== undefined) expect(actual).toEqual(details);
  else if (actual !== undefined) expect(actual).toEqual(expect.any(Object));
}
