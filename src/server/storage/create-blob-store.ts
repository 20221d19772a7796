import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { LazyS3Store } from './lazy-s3-store.ts';
import { LocalDiskStore } from './local-disk-store.ts';
import { parseS3Url } from './s3-url.ts';

/** The store STORAGE_URL names: an S3-compatible bucket for `s3://…`, else local disk under DATA_DIR. */
export function createBlobStore(config: Config): BlobStore {
  const url = config.STORAGE_URL;
  if (url?.startsWith('s3://')) {
    const { bucket, prefix } = parseS3Url(url);
    return new LazyS3Store({
      bucket,
      prefix,
      region: config.S3_REGION,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      ...(config.S3_PUBLIC_ENDPOINT ? { publicEndpoint: config.S3_PUBLIC_ENDPOINT } : {}),
      ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: config.S3_ACCESS_KEY_ID,
              secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            },
          }
        : {}),
      ...(config.S3_PUBLIC_BASE_URL ? { publicBaseUrl: config.S3_PUBLIC_BASE_URL } : {}),
    });
  }
  // Made on the first write, so a server (or test) that stores nothing never touches DATA_DIR.
  return new LocalDiskStore(path.join(config.DATA_DIR, 'blobs'));
}
