import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeView, LegacyErrorView } from '../errors/error-envelope.view';

/**
 * Documentation only: the error answers a route can give, each with the `/v1` envelope schema and
 * the codes named in the description. Several decorators for one status merge their descriptions.
 */
export const ApiErrorResponse = (status: number, description: string) =>
  ApiResponse({ status, description, type: ErrorEnvelopeView });

const BAD_REQUEST_BASE =
  'VALIDATION_FAILED: a path parameter, query parameter or body field is missing or malformed ' +
  '(`details.issues` lists `{path, message}`). BAD_REQUEST: the body is not JSON sent with ' +
  '`Content-Type: application/json`, or a body was sent to a route that takes none.';

/** 400 on a route that takes path or query parameters (or no body at all); `extra` names more 400 codes. */
export const ApiBadRequestErrors = (...extra: string[]) =>
  ApiErrorResponse(400, [BAD_REQUEST_BASE, ...extra].join(' '));

/** 400 on a route that takes no input at all: only a body sent to it is refused. */
export const ApiNoBodyError = () =>
  ApiErrorResponse(400, 'BAD_REQUEST: `This route takes no body.` (any body, `{}` included).');

/** 400 and 413 on a route that takes a JSON body. */
export const ApiJsonBodyErrors = (...extra: string[]) =>
  applyDecorators(
    ApiBadRequestErrors(...extra),
    ApiErrorResponse(413, 'PAYLOAD_TOO_LARGE: the body is larger than 5 MB.'),
  );

/** 404 for a record that is absent or out of the caller's reach (never a 403): `<Resource> not found.` */
export const ApiNotFoundError = (resource: string, when = "when it is absent or out of the caller's reach") =>
  ApiErrorResponse(
    404,
    `NOT_FOUND: \`${resource} not found.\` ${when} (the answer never reveals whether it exists).`,
  );

/** 403 codes the route itself can answer, beyond the credential rules. */
export const ApiForbiddenError = (description: string) => ApiErrorResponse(403, description);

/** 409 codes of the route. */
export const ApiConflictError = (description: string) => ApiErrorResponse(409, description);

/** 410 for something used up or expired. */
export const ApiGoneError = (description: string) => ApiErrorResponse(410, description);

/** 401 a public route answers itself (wrong password, unknown token). */
export const ApiUnauthenticatedError = (description: string) => ApiErrorResponse(401, description);

/**
 * The listing families (`/properties/*`, `/property-sources/*`): the same answers in the legacy
 * shape `{statusCode, code, message, missingScopes, requiredScopes}` (`LegacyErrorView`). Use these,
 * never the envelope ones, on a `@ListingRoute` or `@ListingWriteRoute`.
 */
export const ApiLegacyErrorResponse = (status: number, description: string) =>
  ApiResponse({ status, description, type: LegacyErrorView });

const LEGACY_BAD_REQUEST_BASE =
  'VALIDATION_FAILED: a path parameter, query parameter or body field is missing or malformed ' +
  '(`message` names the first issue, `<path>: <rule>`). BAD_REQUEST: the body is not JSON sent with ' +
  '`Content-Type: application/json`, or a body was sent to a route that takes none.';

/** 400 on a listing route; `extra` names more 400 codes (`PROPERTY_PORTAL_QUOTA_EXHAUSTED: …`). */
export const ApiLegacyBadRequestErrors = (...extra: string[]) =>
  ApiLegacyErrorResponse(400, [LEGACY_BAD_REQUEST_BASE, ...extra].join(' '));

/** 400 on a listing route that takes no input at all: only a body sent to it is refused. */
export const ApiLegacyNoBodyError = () =>
  ApiLegacyErrorResponse(400, 'BAD_REQUEST: `This route takes no body.` (any body, `{}` included).');

/** 400 and 413 on a listing route that takes a JSON body. */
export const ApiLegacyJsonBodyErrors = (...extra: string[]) =>
  applyDecorators(
    ApiLegacyBadRequestErrors(...extra),
    ApiLegacyErrorResponse(413, 'PAYLOAD_TOO_LARGE: the body is larger than 5 MB.'),
  );

/** 404 on a listing route: `Listing not found.` unless another resource is named. */
export const ApiLegacyNotFoundError = (
  resource = 'Listing',
  when = "when it is absent or out of the caller's reach",
) =>
  ApiLegacyErrorResponse(
    404,
    `NOT_FOUND: \`${resource} not found.\` ${when} (the answer never reveals whether it exists).`,
  );

/** 409 codes of a listing route. */
export const ApiLegacyConflictError = (description: string) => ApiLegacyErrorResponse(409, description);

/** 413 of a listing upload route (`description` names its limits). */
export const ApiLegacyPayloadTooLargeError = (description: string) =>
  ApiLegacyErrorResponse(413, `PAYLOAD_TOO_LARGE: ${description}`);

/** 415 of a listing upload route: the body is not `multipart/form-data`. */
export const ApiLegacyUnsupportedMediaTypeError = (
  description = 'UNSUPPORTED_MEDIA_TYPE: send `multipart/form-data`.',
) => ApiLegacyErrorResponse(415, description);
