// What the 'Status' page shows of the running site (docs/operations.md, "Scheduled jobs and the 'Status' page"): the
// scheduler's jobs, which database and storage are in use and how much the database holds;
// the outbox's counts come from the mail feature and the version from package.json (the route
// adds them).

import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { type JobStatus, jobStatus } from "~/shared/scheduler.server";

export interface SiteStatus {
  jobs: JobStatus[];
  database: { kind: string; version: string; bytes: number };
  storage: { photos: string; documents: string };
}

export async function readSiteStatus(db: Db, env: Env): Promise<SiteStatus> {
  const [row] = await db.query<{ version: string; bytes: string }>(
    `SELECT current_setting('server_version') AS version,
       pg_database_size(current_database())::text AS bytes`,
  );
  return {
    jobs: await jobStatus(db),
    database: {
      kind: db.kind === "pglite" ? "Embedded (PGlite)" : "PostgreSQL",
      version: row?.version ?? "",
      bytes: Number(row?.bytes ?? 0),
    },
    storage: env.s3
      ? { photos: `S3 bucket ${env.s3.bucket}`, documents: `S3 bucket ${env.s3.privateBucket}` }
      : { photos: "DATA_DIR/images", documents: "DATA_DIR/private" },
  };
}
