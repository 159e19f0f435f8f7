import { DomainError, notFound, validationFailed } from '../errors/domain-error';
import { toErrorBody } from './error-body';
import { isListingPath, toLegacyBody } from './error-legacy';

const legacy = (err: unknown, scopes: string[] = ['properties:write']) =>
  toLegacyBody(toErrorBody(err).body, scopes);

describe('isListingPath', () => {
  it.each([
    ['/properties', true],
    ['/properties/', true],
    ['/properties/themes', true],
    ['/properties/nope/x', true],
    ['/property-sources', true],
    ['/property-sources/demoportal/search', true],
    ['/propertiesx', false],
    ['/property-sourcesx/a', false],
    ['/v1/properties', false],
    ['/v1/leads', false],
    ['/agents', false],
    ['/organization/property-feeds', false],
  ])('%s → %s', (path, expected) => {
    expect(isListingPath(path)).toBe(expected);
  });
});

describe('toLegacyBody', () => {
  it('answers the five fields, both arrays always present', () => {
    expect(legacy(notFound('Listing'))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Listing not found.',
      missingScopes: [],
      requiredScopes: ['properties:write'],
    });
    expect(legacy(new DomainError('UNAUTHENTICATED', 'No key.'), [])).toEqual({
      statusCode: 401,
      code: 'UNAUTHENTICATED',
      message: 'No key.',
      missingScopes: [],
      requiredScopes: [],
    });
  });

  it('names the missing scopes of a scope refusal', () => {
    const err = new DomainError('API_KEY_SCOPE_MISSING', 'Missing.', { missing: ['properties:write'] });
    expect(legacy(err)).toMatchObject({
      statusCode: 403,
      missingScopes: ['properties:write'],
      requiredScopes: ['properties:write'],
    });
  });

  it('names the first issue of a validation error in the message', () => {
    const err = validationFailed([
      { path: 'title', message: 'title must be shorter than or equal to 200 characters' },
      { path: 'bathrooms', message: 'bathrooms must have at most one decimal' },
    ]);
    expect(legacy(err)).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'title: title must be shorter than or equal to 200 characters',
      missingScopes: [],
      requiredScopes: ['properties:write'],
    });
  });

  it('maps the listing codes to 400', () => {
    for (const code of ['PROPERTY_PORTAL_QUOTA_EXHAUSTED', 'MEDIA_TYPE_NOT_ALLOWED'] as const) {
      expect(legacy(new DomainError(code, 'No.'))).toMatchObject({ statusCode: 400, code });
    }
  });

  it('never leaks details other than the scopes', () => {
    const body = legacy(new DomainError('CONFLICT', 'Taken.', { reference: 'R-1' }));
    expect(Object.keys(body).sort()).toEqual([
      'code',
      'message',
      'missingScopes',
      'requiredScopes',
      'statusCode',
    ]);
  });
});
