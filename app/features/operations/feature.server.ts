import type { Feature } from "~/shared/feature.server";

/** Running the site: the scheduler's record, the CLI, status (docs/architecture.md, "The feature contract"). */
export const operationsFeature: Feature<unknown> = {
  name: "operations",
  // When each weekly or daily e-mail last went (a row per name: the stale-listings e-mail, the
  // alerts' new matches): carried, so a restored site does not send them again at once.
  tables: ["scheduled_runs"],
  notBackedUp: [
    {
      table: "job_runs",
      why: "the scheduler's record belongs to the server that ran the jobs; a restored site starts its own (docs/operations.md, \"Scheduled jobs and the 'Status' page\")",
    },
  ],
};
