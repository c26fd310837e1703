import type { DelayedJob, PeriodicJob } from "./scheduler.server";

/**
 * What a feature tells the server about itself (docs/architecture.md, "The feature contract"):
 * the server, the scheduler, backups and 'Erase this person' go over one list of these
 * (`server/features.ts`), so a new feature touches its folder, `app/routes.ts` and that list.
 *
 * `S` is what the feature needs of the server's services (the database, the environment, …);
 * the list is checked against what the server has.
 */
export interface Feature<S> {
  /** The folder's name under app/features. */
  name: string;
  /** The tables the feature owns (reads and writes) that a backup carries. */
  tables: readonly string[];
  /** Tables it owns that a backup leaves out, each with why (restored sites make their own). */
  notBackedUp?: readonly { table: string; why: string }[];
  /** Its periodic work, run by the one scheduler (docs/decisions/0081). */
  jobs?: (services: S) => PeriodicJob[];
  /** Its work due at given times (`Scheduler.at`, by name), run once across instances. */
  delayedJobs?: (services: S) => DelayedJob<never>[];
  /**
   * Its per-client hourly limits, each counted apart (`context.limit(name)` in its actions;
   * shared by every instance with DATABASE_URL: docs/decisions/0063).
   */
  limits?: readonly { name: string; perHour: (services: S) => number }[];
  /**
   * 'Erase this person' (docs/behaviour.md §27): everything the feature keeps of this e-mail
   * address goes. Returns how many of the person's messages or applications went (what only
   * goes with them, such as alerts and e-mail, is not counted).
   */
  erasePerson?: (services: S, email: string, by: { actorId: string | null }) => Promise<number>;
}
