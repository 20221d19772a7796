import type { BlobStore } from './blob-store.ts';
import type { S3Store, S3StoreOptions } from './s3-store.ts';

/**
 * The S3 store, with the AWS SDK imported on the store's first use instead of with the server's code:
 * the SDK is about a quarter of a second of the start-up's loading, paid by every server before this.
 * A remote store all the same (presigned uploads and downloads, no local paths).
 */
export class LazyS3Store implements BlobStore {
  private loaded: Promise<S3Store> | null = null;

  constructor(private readonly options: S3StoreOptions) {}

  /** The real store (made once; concurrent first calls share the import). */
  store(): Promise<S3Store> {
    this.loaded ??= import('./s3-store.ts').then(({ S3Store }) => new S3Store(this.options));
    return this.loaded;
  }

  async put(...args: Parameters<BlobStore['put']>) {
    return (await this.store()).put(...args);
  }
  async stat(key: string) {
    return (await this.store()).stat(key);
  }
  async createReadStream(...args: Parameters<BlobStore['createReadStream']>) {
    return (await this.store()).createReadStream(...args);
  }
  async delete(key: string) {
    return (await this.store()).delete(key);
  }
  async ping() {
    return (await this.store()).ping();
  }
  async presignUpload(...args: Parameters<NonNullable<BlobStore['presignUpload']>>) {
    return (await this.store()).presignUpload(...args);
  }
  async downloadUrl(...args: Parameters<NonNullable<BlobStore['downloadUrl']>>) {
    return (await this.store()).downloadUrl(...args);
  }
}
