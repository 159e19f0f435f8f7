import { WriteBuffer } from './buffered-writes';

describe('a write buffer', () => {
  const counting = (write: (batch: ReadonlyMap<string, number>) => Promise<void>) =>
    new WriteBuffer<string, number>({ name: 'test', everyMs: 1_000, merge: (a, b) => a + b, write });

  it('writes what was gathered per key in one batch, then nothing until more comes', async () => {
    const batches: Record<string, number>[] = [];
    const buffer = counting(async (batch) => void batches.push(Object.fromEntries(batch)));
    buffer.add('a', 1);
    buffer.add('a', 1);
    buffer.add('b', 1);
    expect(await buffer.flush()).toBe(2);
    expect(await buffer.flush()).toBe(0);
    expect(batches).toEqual([{ a: 2, b: 1 }]);
  });

  it('keeps a batch whose write failed, merged with what came since, for the next flush', async () => {
    const batches: Record<string, number>[] = [];
    let fail = true;
    const buffer = counting(async (batch) => {
      if (fail) throw new Error('database away');
      batches.push(Object.fromEntries(batch));
    });
    buffer.add('a', 2);
    await expect(buffer.flush()).rejects.toThrow('database away');
    buffer.add('a', 3);
    buffer.add('c', 1);
    fail = false;
    await buffer.flush();
    expect(batches).toEqual([{ a: 5, c: 1 }]);
  });

  it('runs one flush at a time: a second waits for the first and writes what came meanwhile', async () => {
    const batches: Record<string, number>[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const buffer = counting(async (batch) => {
      batches.push(Object.fromEntries(batch));
      if (first) {
        first = false;
        await held;
      }
    });
    buffer.add('a', 1);
    const one = buffer.flush();
    await new Promise((resolve) => setImmediate(resolve)); // the first write runs, held
    buffer.add('a', 1);
    const two = buffer.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([{ a: 1 }]);
    release();
    await Promise.all([one, two]);
    expect(batches).toEqual([{ a: 1 }, { a: 1 }]);
  });
});
