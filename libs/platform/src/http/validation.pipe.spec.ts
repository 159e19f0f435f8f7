import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Min,
  ValidateNested,
  ValidationError,
  validateSync,
} from 'class-validator';
import { DomainError } from '../errors/domain-error';
import {
  findUnstorableText,
  flattenValidationErrors,
  NullableBody,
  RequestValidationPipe,
} from './validation.pipe';

class LaneDto {
  @IsString()
  @Length(1, 20)
  name: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  weight?: number;
}

class AddressDto {
  @IsString()
  city: string;
}

class RoutingDto {
  @IsString()
  @Length(1, 50)
  name: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => LaneDto)
  lanes?: LaneDto[];
}

const error = (property: string, constraints?: Record<string, string>, children: ValidationError[] = []) =>
  Object.assign(new ValidationError(), { property, constraints, children });

describe('flattenValidationErrors', () => {
  it('gives one issue per constraint message, with the property as path', () => {
    expect(flattenValidationErrors([error('name', { isString: 'name must be a string' })])).toEqual([
      { path: 'name', message: 'name must be a string' },
    ]);
  });

  it('dots nested paths, array indexes included', () => {
    const errors = [
      error('lanes', undefined, [
        error('0', undefined, [error('name', { isLength: 'name is too long' })]),
        error('2', undefined, [
          error('name', { isString: 'name must be a string' }),
          error('weight', { min: 'weight must not be less than 0' }),
        ]),
      ]),
      error('address', undefined, [error('city', { isString: 'city must be a string' })]),
    ];
    expect(flattenValidationErrors(errors)).toEqual([
      { path: 'lanes.0.name', message: 'name is too long' },
      { path: 'lanes.2.name', message: 'name must be a string' },
      { path: 'lanes.2.weight', message: 'weight must not be less than 0' },
      { path: 'address.city', message: 'city must be a string' },
    ]);
  });

  it('keeps a parent’s own message next to its children’s', () => {
    const errors = [
      error('lanes', { arrayMaxSize: 'lanes must contain no more than 3 elements' }, [
        error('1', undefined, [error('name', { isString: 'name must be a string' })]),
      ]),
    ];
    expect(flattenValidationErrors(errors)).toEqual([
      { path: 'lanes', message: 'lanes must contain no more than 3 elements' },
      { path: 'lanes.1.name', message: 'name must be a string' },
    ]);
  });

  it('prefixes a parent path', () => {
    expect(flattenValidationErrors([error('name', { isString: 'x' })], 'body')).toEqual([
      { path: 'body.name', message: 'x' },
    ]);
  });

  it('is empty for no errors', () => {
    expect(flattenValidationErrors([])).toEqual([]);
  });

  it('flattens what class-validator really produces', () => {
    const dto = Object.assign(new RoutingDto(), {
      name: 'ok',
      address: Object.assign(new AddressDto(), { city: 7 }),
      lanes: [Object.assign(new LaneDto(), { name: 'a' }), Object.assign(new LaneDto(), { name: 5 })],
    });
    const issues = flattenValidationErrors(validateSync(dto));
    expect(issues.map((issue) => issue.path).sort()).toEqual([
      'address.city',
      'lanes.1.name',
      'lanes.1.name',
    ]);
    issues.forEach((issue) => expect(issue.message).toEqual(expect.any(String)));
  });
});

describe('RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();
  const body: ArgumentMetadata = { type: 'body', metatype: RoutingDto, data: undefined };

  /** The DomainError the pipe throws for `value`; fails the test when it passes. */
  async function refusal(value: unknown, metadata = body): Promise<DomainError> {
    try {
      await pipe.transform(value, metadata);
    } catch (err) {
      if (err instanceof DomainError) return err;
      throw err;
    }
    throw new Error(`pipe accepted ${JSON.stringify(value)}`);
  }

  it('turns a valid body into the DTO class', async () => {
    const value = await pipe.transform({ name: 'North', lanes: [{ name: 'a', weight: 2 }] }, body);
    expect(value).toBeInstanceOf(RoutingDto);
    expect((value as RoutingDto).lanes?.[0]).toBeInstanceOf(LaneDto);
  });

  it('drops unknown fields instead of refusing them, nested ones too', async () => {
    const value = await pipe.transform(
      { name: 'North', isAdmin: true, lanes: [{ name: 'a', extra: 1 }], address: { city: 'Rome', zip: '1' } },
      body,
    );
    expect(value).toEqual({ name: 'North', lanes: [{ name: 'a' }], address: { city: 'Rome' } });
  });

  it('refuses with VALIDATION_FAILED and dotted paths in details.issues', async () => {
    const err = await refusal({
      name: '',
      lanes: [{ name: 'a' }, { name: 'b', weight: -1 }],
      address: { city: 1 },
    });
    expect(err.code).toBe('VALIDATION_FAILED');
    const issues = (err.details as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((issue) => issue.path).sort()).toEqual(['address.city', 'lanes.1.weight', 'name']);
    issues.forEach((issue) =>
      expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) }),
    );
  });

  it('reports at most one issue per field', async () => {
    const err = await refusal({ name: 42 });
    expect((err.details as { issues: unknown[] }).issues).toHaveLength(1);
  });

  it('validates a missing body as an empty object', async () => {
    const err = await refusal(undefined);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details).toEqual({ issues: [{ path: 'name', message: expect.any(String) }] });
  });

  it.each([[[{ name: 'North' }]], [[]]])('refuses an array for a body: %p', async (value) => {
    const err = await refusal(value);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details).toEqual({ issues: [{ path: expect.any(String), message: expect.any(String) }] });
  });

  it('refuses a NUL in a path parameter, naming the parameter', async () => {
    const err = await refusal('a\u0000b', { type: 'param', metatype: String, data: 'listingId' });
    expect(err.details).toEqual({
      issues: [{ path: 'listingId', message: 'must not contain a NUL character' }],
    });
  });

  it('refuses an array as an item of a list of objects', async () => {
    const err = await refusal({ name: 'North', lanes: [{ name: 'a' }, []] });
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details).toEqual({
      issues: [{ path: 'lanes.1', message: 'each of lanes must be an object' }],
    });
  });

  it.each([[null], ['North'], [5], [true]])(
    'refuses JSON that is no object or array, as a strict parser would: %p',
    async (value) => {
      const err = await refusal(value);
      expect(err.code).toBe('BAD_REQUEST');
    },
  );

  it('lets NullableBody take null and validate anything else', async () => {
    const nullable = NullableBody(LaneDto);
    const metadata: ArgumentMetadata = { type: 'body', metatype: Object, data: undefined };
    await expect(nullable.transform(null, metadata)).resolves.toBeNull();
    await expect(nullable.transform({ name: 'a', weight: 'x' }, metadata)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('validates query DTOs the same way', async () => {
    const query: ArgumentMetadata = { type: 'query', metatype: LaneDto, data: undefined };
    await expect(pipe.transform({ name: 'a', weight: 'x' }, query)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: 'weight', message: expect.any(String) }] },
    });
  });

  it('leaves values without a DTO class alone', async () => {
    const raw: ArgumentMetadata = { type: 'body', metatype: Object, data: undefined };
    await expect(pipe.transform([1, 2], raw)).resolves.toEqual([1, 2]);
    const param: ArgumentMetadata = { type: 'param', metatype: String, data: 'id' };
    await expect(pipe.transform('abc', param)).resolves.toBe('abc');
  });
});

describe('findUnstorableText', () => {
  const NUL = 'must not contain a NUL character';
  const LONE = 'must be well-formed Unicode text (a lone surrogate)';

  it('names the first string holding a NUL character, nested ones too', () => {
    expect(findUnstorableText({ a: 'ok', b: [{ c: 'x' }, { c: 'y\u0000' }], d: '\u0000' })).toEqual({
      path: 'b.1.c',
      message: NUL,
    });
    expect(findUnstorableText('\u0000')).toEqual({ path: '', message: NUL });
    expect(findUnstorableText({ a: ['fine', null, 3] })).toBeNull();
  });

  it('a lone surrogate, either half; a pair (an emoji) is fine', () => {
    expect(findUnstorableText({ email: 'a\ud800@b.es' })).toEqual({ path: 'email', message: LONE });
    expect(findUnstorableText(['\udc00x'])).toEqual({ path: '0', message: LONE });
    expect(findUnstorableText({ a: '\ud83d\ude00 ok', b: 'Málaga' })).toBeNull();
  });

  it("a field's name too (free-form objects are stored as jsonb)", () => {
    expect(findUnstorableText({ meta: { 'k\u0000': 1 } })).toEqual({
      path: 'meta.k\u0000',
      message: `field name ${NUL}`,
    });
  });

  it('reaches any depth without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(findUnstorableText({ a: deep })?.path).toBe(`a${'.0'.repeat(20_000)}`);
  });
});

describe('missing fields', () => {
  const pipe = new RequestValidationPipe();
  const body: ArgumentMetadata = { type: 'body', metatype: RoutingDto, data: undefined };

  it('says a missing required field is required, whatever rule came first', async () => {
    await expect(pipe.transform({ lanes: [{ weight: 1 }] }, body)).rejects.toMatchObject({
      details: {
        issues: [
          { path: 'name', message: 'name is required' },
          { path: 'lanes.0.name', message: 'name is required' },
        ],
      },
    });
  });

  it('keeps the rule’s own message for a field that is present', async () => {
    await expect(pipe.transform({ name: 'x'.repeat(51) }, body)).rejects.toMatchObject({
      details: { issues: [{ path: 'name', message: 'name must be shorter than or equal to 50 characters' }] },
    });
  });
});
