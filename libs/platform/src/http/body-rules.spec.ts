import { jsonBodiesOnly, MAX_BODY_DEPTH, nestsDeeperThan, RequestWithBody } from './body-rules';

describe('nestsDeeperThan', () => {
  const nest = (levels: number, wrap: (inner: unknown) => unknown): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = wrap(value);
    return value;
  };

  it('counts the top-level object or array as one level', () => {
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true);
    expect(nestsDeeperThan({ a: 'x', b: [1, 2, null] }, 2)).toBe(false);
  });

  it('never counts scalars, null or a missing body', () => {
    for (const value of [undefined, null, 1, 'x', true]) expect(nestsDeeperThan(value, 0)).toBe(false);
  });

  it.each([
    ['objects', (inner: unknown) => ({ a: inner })],
    ['arrays', (inner: unknown) => [inner]],
  ])('allows exactly the limit of %s, and no more', (_shape, wrap) => {
    expect(nestsDeeperThan(nest(MAX_BODY_DEPTH, wrap), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nest(MAX_BODY_DEPTH + 1, wrap), MAX_BODY_DEPTH)).toBe(true);
  });

  it('finds a deep branch next to shallow ones', () => {
    expect(nestsDeeperThan({ a: 1, b: [{}], c: { d: nest(40, (inner) => [inner]) } }, MAX_BODY_DEPTH)).toBe(
      true,
    );
  });

  it('reaches 100,000 levels without overflowing the stack', () => {
    expect(
      nestsDeeperThan(
        nest(100_000, (inner) => ({ a: inner })),
        MAX_BODY_DEPTH,
      ),
    ).toBe(true);
  });
});

describe('jsonBodiesOnly', () => {
  const run = (headers: Record<string, string>) => {
    const req = { headers } as unknown as RequestWithBody;
    let passed: unknown = 'not called';
    jsonBodiesOnly(req, {} as never, (err?: unknown) => (passed = err));
    expect(passed).toBeUndefined();
    return req;
  };

  it('marks a body that is not JSON for the route to refuse (400, or 415 on an upload route)', () => {
    expect(run({ 'content-type': 'application/json', 'content-length': '2' }).bodyNotJson).toBe(false);
    expect(run({ 'content-type': 'text/plain', 'content-length': '2' }).bodyNotJson).toBe(true);
    expect(run({ 'content-type': 'application/jsonl', 'content-length': '2' }).bodyNotJson).toBe(true);
    expect(
      run({ 'content-type': 'multipart/form-data; boundary=x', 'content-length': '9' }).bodyNotJson,
    ).toBe(true);
    expect(run({ 'transfer-encoding': 'chunked' }).bodyNotJson).toBe(true);
    expect(run({ 'content-type': 'text/plain' }).bodyNotJson).toBe(false);
  });
});
