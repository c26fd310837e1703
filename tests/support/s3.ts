// An S3-compatible server for tests: s3rver, in this process, on a free loopback port. The AWS
// SDK reads its endpoint and credentials from the standard variables, as in production.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

export interface TestS3 {
  endpoint: string;
  /** The environment a server (or child process) needs to use `bucket` on this server. */
  env(bucket: string): Record<string, string>;
  /** A new empty bucket with a unique name. */
  createBucket(): Promise<string>;
  client: S3Client;
  close(): Promise<void>;
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

export async function startS3(): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const vars = { ...CREDENTIALS, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: endpoint };
  // This process's own SDK clients (the stores under test) read the same variables.
  Object.assign(process.env, vars);
  const client = new S3Client({ forcePathStyle: true });
  return {
    endpoint,
    client,
    env: (bucket) => ({ ...vars, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: "true" }),
    async createBucket() {
      const bucket = `test-${randomUUID().slice(0, 18)}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return bucket;
    },
    async close() {
      client.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
