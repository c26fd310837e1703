// Where applications' documents are kept (docs/decisions/0071): a blob backend nothing
// public serves. On disk DATA_DIR/private (beside DATA_DIR/images, never under it, so no photo
// route reaches it); with S3 the private bucket (S3_PRIVATE_BUCKET, else S3_BUCKET itself, as for
// the trash: docs/decisions/0052). The documents are stored sealed under `applications/`
// (documents.server.ts) and copied as they are, still sealed, into backups.
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import { type BlobBackend, DiskBackend, S3Backend } from "~/features/images/index.server";
import type { Env } from "~/shared/env.server";

/** The key prefix of every document in the private backend: `applications/{id}/{uuid}`. */
export const DOCUMENTS_PREFIX = "applications/";

/** The private backend Env chooses: the private bucket with S3, else DATA_DIR/private. */
export function createPrivateBackend(env: Pick<Env, "dataDir" | "s3">): BlobBackend {
  if (env.s3) {
    // Credentials, region and endpoint from the SDK's standard variables, as for the photos.
    const client = new S3Client({ forcePathStyle: env.s3.forcePathStyle });
    return new S3Backend(client, env.s3.privateBucket);
  }
  const root = path.join(env.dataDir, "private");
  // (Files being written go to `.tmp/` on the same filesystem; a listing skips dot-names.)
  return new DiskBackend(root, path.join(root, ".tmp"));
}
