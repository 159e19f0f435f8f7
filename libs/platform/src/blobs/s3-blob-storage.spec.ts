import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { AppConfig, ConfigError } from '../config/app-config';
import { blobStorageFor } from './blobs.module';
import { DiskBlobStorage } from './disk-blob-storage';
import { S3BlobStorage, s3ClientConfig, type S3Sender } from './s3-blob-storage';

/** A fake client: records each command and answers from `objects` (no network). */
function fakeS3(objects = new Map<string, Buffer>()) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const missing = (name: string, status = 404) =>
    Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
  const client: S3Sender = {
    send: (async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      const input = command.input;
      sent.push({ name, input });
      const key = `${String(input.Bucket)}/${String(input.Key)}`;
      if (command instanceof PutObjectCommand) objects.set(key, input.Body as Buffer);
      if (command instanceof DeleteObjectCommand) objects.delete(key);
      if (command instanceof HeadObjectCommand && !objects.has(key)) throw missing('NotFound');
      if (command instanceof GetObjectCommand) {
        const bytes = objects.get(key);
        if (!bytes) throw missing('NoSuchKey');
        return { Body: { transformToByteArray: async () => new Uint8Array(bytes) } };
      }
      return {};
    }) as S3Sender['send'],
  };
  return { client, sent, objects };
}

const config = (env: NodeJS.ProcessEnv) => AppConfig.fromEnv(env);

describe('MEDIA_S3_* configuration', () => {
  it('none set: no S3, the disk store', async () => {
    const disk = config({});
    expect(disk.mediaS3).toBeNull();
    expect(await blobStorageFor(disk)).toBeInstanceOf(DiskBlobStorage);
  });

  it('AWS: bucket and region, keys optional (the SDK chain without them)', async () => {
    expect(config({ MEDIA_S3_BUCKET: 'agency-media', MEDIA_S3_REGION: 'eu-west-1' }).mediaS3).toEqual({
      bucket: 'agency-media',
      region: 'eu-west-1',
      endpoint: null,
      credentials: null,
    });
    const keyed = config({
      MEDIA_S3_BUCKET: 'agency-media',
      MEDIA_S3_REGION: 'eu-west-1',
      MEDIA_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(keyed.mediaS3?.credentials).toEqual({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' });
    expect(await blobStorageFor(keyed)).toBeInstanceOf(S3BlobStorage);
  });

  it('an S3-compatible endpoint: region defaults to us-east-1, trailing slash dropped', () => {
    expect(config({ MEDIA_S3_BUCKET: 'media', MEDIA_S3_ENDPOINT: 'http://minio:9000/' }).mediaS3).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      credentials: null,
    });
  });

  it('a half configuration or a bad value is a ConfigError naming the variables', () => {
    const refused: [NodeJS.ProcessEnv, string][] = [
      [{ MEDIA_S3_REGION: 'eu-west-1' }, 'MEDIA_S3_BUCKET is required with MEDIA_S3_REGION'],
      [
        { MEDIA_S3_ACCESS_KEY_ID: 'a', MEDIA_S3_SECRET_ACCESS_KEY: 'b' },
        'MEDIA_S3_BUCKET is required with MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY',
      ],
      [{ MEDIA_S3_BUCKET: 'media' }, 'MEDIA_S3_REGION is required'],
      [
        { MEDIA_S3_BUCKET: 'media', MEDIA_S3_REGION: 'eu-west-1', MEDIA_S3_ACCESS_KEY_ID: 'a' },
        'MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY go together',
      ],
      [
        { MEDIA_S3_BUCKET: 'media', MEDIA_S3_REGION: 'eu-west-1', MEDIA_S3_SECRET_ACCESS_KEY: 'b' },
        'go together',
      ],
      [{ MEDIA_S3_BUCKET: 'Bad_Bucket', MEDIA_S3_REGION: 'eu-west-1' }, 'MEDIA_S3_BUCKET must be'],
      [{ MEDIA_S3_BUCKET: 'media', MEDIA_S3_ENDPOINT: 'minio:9000' }, 'MEDIA_S3_ENDPOINT must be'],
      [{ MEDIA_S3_BUCKET: 'media', MEDIA_S3_ENDPOINT: 'http://minio/path' }, 'MEDIA_S3_ENDPOINT must be'],
    ];
    for (const [env, message] of refused) {
      expect(() => config(env)).toThrow(ConfigError);
      expect(() => config(env)).toThrow(message);
    }
  });

  it('the SDK client: path-style only with an endpoint; the keys as given', async () => {
    expect(s3ClientConfig({ bucket: 'b', region: 'eu-west-1', endpoint: null, credentials: null })).toEqual({
      region: 'eu-west-1',
    });
    const compatible = s3ClientConfig({
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      credentials: { accessKeyId: 'a', secretAccessKey: 's' },
    });
    expect(compatible).toEqual({
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 's' },
    });
    const client = new S3Client(compatible);
    expect(client.config.forcePathStyle).toBe(true);
    expect(await client.config.region()).toBe('us-east-1');
    client.destroy();
  });
});

describe('S3BlobStorage', () => {
  it('maps a blob key to the object of that key in the bucket', () => {
    const store = new S3BlobStorage(fakeS3().client, 'agency-media');
    expect(store.objectOf('media-abc')).toEqual({ Bucket: 'agency-media', Key: 'media-abc' });
    for (const key of ['', '.', '..', '../x', 'a/b', 'x'.repeat(201)]) {
      expect(() => store.objectOf(key)).toThrow('Invalid blob key');
    }
  });

  it('puts, has, gets, deletes; a missing object reads null and has false', async () => {
    const s3 = fakeS3();
    const store = new S3BlobStorage(s3.client, 'agency-media');
    expect(await store.get('media-1')).toBeNull();
    expect(await store.has('media-1')).toBe(false);
    await store.put('media-1', Buffer.from('bytes'));
    expect(await store.has('media-1')).toBe(true);
    expect((await store.get('media-1'))?.toString()).toBe('bytes');
    await store.delete('media-1');
    await store.delete('media-1');
    expect(await store.get('media-1')).toBeNull();
    expect(s3.sent.map((c) => c.name)).toEqual([
      'GetObjectCommand',
      'HeadObjectCommand',
      'PutObjectCommand',
      'HeadObjectCommand',
      'GetObjectCommand',
      'DeleteObjectCommand',
      'DeleteObjectCommand',
      'GetObjectCommand',
    ]);
    expect(s3.sent[2].input).toMatchObject({ Bucket: 'agency-media', Key: 'media-1', ContentLength: 5 });
  });

  it('other failures are not taken for a missing object', async () => {
    const failing: S3Sender = {
      send: (async () => {
        throw Object.assign(new Error('AccessDenied'), {
          name: 'AccessDenied',
          $metadata: { httpStatusCode: 403 },
        });
      }) as S3Sender['send'],
    };
    const store = new S3BlobStorage(failing, 'agency-media');
    await expect(store.get('k')).rejects.toThrow('AccessDenied');
    await expect(store.has('k')).rejects.toThrow('AccessDenied');
  });
});
