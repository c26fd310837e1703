import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { activityRetentionJob } from "./activity.server";

/** 'Activity' (docs/architecture.md, "The feature contract"). */
export const activityFeature: Feature<{ db: Db; env: Pick<Env, "activityRetentionDays"> }> = {
  name: "activity",
  tables: ["activity_events"],
  jobs: ({ db, env }) => [activityRetentionJob(db, env.activityRetentionDays)],
};
