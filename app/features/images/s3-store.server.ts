// Photos in an S3-compatible bucket: the photo store over S3Backends. The object key is the
// photo's path under DATA_DIR/images on disk, `{collection}/{folder}/image_{timestamp}_{index}.jpg`
// and its variants (docs/decisions/0038-object-storage.md); the trash keeps its `.trash/…` keys
// in the private bucket (docs/decisions/0052-trash-in-a-private-bucket.md).
import { S3Client } from "@aws-sdk/client-s3";
import { PhotoStore } from "./photo-store.server";
import { S3Backend } from "./s3-backend.server";

export interface S3StoreOptions {
  bucket: string;
  /**
   * Where the trash lives (`S3_PRIVATE_BUCKET`): a bucket no CDN serves, so removed, deleted and
   * history-only photos are never public (docs/decisions/0052-trash-in-a-private-bucket.md).
   * Default: `bucket` itself (under `.trash/`), safe only while nothing public serves `bucket`.
   */
  privateBucket?: string;
  /** `S3_FORCE_PATH_STYLE=true`: `{endpoint}/{bucket}/{key}` (MinIO, Ceph, s3rver). */
  forcePathStyle: boolean;
  /** Local folder for uploads being read (the bucket only ever receives finished photos). */
  tempDir: string;
  client?: S3Client;
}

export class S3ImageStore extends PhotoStore {
  readonly bucket: string;
  readonly privateBucket: string;
  readonly client: S3Client;

  constructor(options: S3StoreOptions) {
    const client = options.client ?? new S3Client({ forcePathStyle: options.forcePathStyle });
    const live = new S3Backend(client, options.bucket);
    const privateBucket = options.privateBucket ?? options.bucket;
    const trash = privateBucket === options.bucket ? live : new S3Backend(client, privateBucket);
    super({ kind: "s3", live, trash, tempDir: options.tempDir, notesPending: false });
    this.bucket = options.bucket;
    this.privateBucket = privateBucket;
    this.client = client;
  }
}
