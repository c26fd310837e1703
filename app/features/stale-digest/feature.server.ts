import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { staleDigestJob } from "./stale-digest.server";

/** The weekly stale-listings e-mail (docs/architecture.md, "The feature contract"). */
export const staleDigestFeature: Feature<{
  db: Db;
  env: Pick<Env, "staleAfterDays" | "leads" | "publicUrl">;
}> = {
  name: "stale-digest",
  // Its last run is a row of `scheduled_runs` (owned by operations).
  tables: [],
  // Available properties nobody confirmed lately, once a week (docs/behaviour.md §30).
  jobs: ({ db, env }) => [
    staleDigestJob(db, {
      staleAfterDays: env.staleAfterDays,
      notify: env.leads.notify,
      publicUrl: env.publicUrl,
    }),
  ],
};
