// Image suites run once on the disk store and once on the S3 store (s3rver in this process), as
// db-targets.ts does for databases (docs/decisions/0038-object-storage.md).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DiskImageStore, type ImageStore, S3ImageStore } from "~/features/images/storage.server";
import { startS3, type TestS3 } from "./s3";

export interface OpenedStore {
  images: ImageStore;
  /** Every stored object, files under the store's root or keys in the bucket (sorted). */
  everything(): Promise<string[]>;
  /** Deletes every stored object. */
  clear(): Promise<void>;
  cleanup(): Promise<void>;
}

export interface ImageStoreTarget {
  name: "disk" | "s3";
  open(): Promise<OpenedStore>;
}

/** One s3rver per test file, started on first use and stopped when the process ends. */
let s3: Promise<TestS3> | undefined;
export function sharedS3(): Promise<TestS3> {
  s3 ??= startS3();
  return s3;
}

export const imageStoreTargets: ImageStoreTarget[] = [
  {
    name: "disk",
    async open() {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "images-disk-"));
      const images = new DiskImageStore(path.join(root, "images"));
      return {
        images,
        async everything() {
          const entries = await fs
            .readdir(images.root, { recursive: true, withFileTypes: true })
            .catch(() => []);
          return entries
            .filter((e) => e.isFile())
            .map((e) => path.relative(images.root, path.join(e.parentPath, e.name)))
            .sort();
        },
        clear: () => fs.rm(images.root, { recursive: true, force: true }),
        cleanup: () => fs.rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "s3",
    async open() {
      const server = await sharedS3();
      const bucket = await server.createBucket();
      // The trash in its own bucket, as production with a CDN has it (decision 0052).
      const privateBucket = await server.createBucket();
      const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "images-s3-tmp-"));
      const images = new S3ImageStore({ bucket, privateBucket, forcePathStyle: true, tempDir });
      const { ListObjectsV2Command, DeleteObjectCommand } = await import("@aws-sdk/client-s3");
      const keysIn = async (name: string) =>
        ((await server.client.send(new ListObjectsV2Command({ Bucket: name }))).Contents ?? []).map(
          (o) => o.Key ?? "",
        );
      const opened: OpenedStore = {
        images,
        // (Trash keys start with `.trash/` in the private bucket: one sorted list of both.)
        async everything() {
          return [...(await keysIn(bucket)), ...(await keysIn(privateBucket))].sort();
        },
        async clear() {
          for (const name of [bucket, privateBucket]) {
            for (const key of await keysIn(name)) {
              await server.client.send(new DeleteObjectCommand({ Bucket: name, Key: key }));
            }
          }
        },
        cleanup: () => fs.rm(tempDir, { recursive: true, force: true }),
      };
      return opened;
    },
  },
];

/** Stops the shared s3rver (call from afterAll of a file that used the s3 target). */
export async function stopSharedS3() {
  const running = s3;
  s3 = undefined;
  await (await running)?.close();
}
