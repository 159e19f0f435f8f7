import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskBlobStorage } from './disk-blob-storage';

describe('DiskBlobStorage', () => {
  let root: string;
  let blobs: DiskBlobStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'blobs-'));
    blobs = new DiskBlobStorage(join(root, 'blobs'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('puts, gets, replaces and deletes; an unknown key reads null and deletes quietly', async () => {
    expect(await blobs.get('a')).toBeNull();
    expect(await blobs.has('a')).toBe(false);
    await blobs.put('a', Buffer.from('one'));
    expect(await blobs.has('a')).toBe(true);
    expect((await blobs.get('a'))?.toString()).toBe('one');
    await blobs.put('a', Buffer.from('two'));
    expect((await blobs.get('a'))?.toString()).toBe('two');
    expect(await readdir(join(root, 'blobs'))).toEqual(['a']);
    await blobs.delete('a');
    await blobs.delete('a');
    expect(await blobs.get('a')).toBeNull();
    expect(await blobs.has('a')).toBe(false);
  });

  it('refuses keys that are not one plain path segment', async () => {
    for (const key of ['', '.', '..', '../x', 'a/b', 'a\\b', 'x'.repeat(201)]) {
      await expect(blobs.put(key, Buffer.from('x'))).rejects.toThrow('Invalid blob key');
    }
  });

  it('lives next to the embedded database directory', () => {
    expect(DiskBlobStorage.fromConfig({ embeddedDataDir: '.data/postgres' } as never).root).toBe(
      join('.data', 'blobs'),
    );
  });
});
