import type { ApplicationServices } from "~/features/applications/index.server";
import type { Viewer } from "~/features/auth";
import type { FeedCache } from "~/features/feeds/index.server";
import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Scheduler } from "~/shared/scheduler.server";

/** What the Express server hands every loader and action (one instance per process). */
export interface AppServices {
  db: Db;
  images: ImageStore;
  env: Env;
}

declare module "react-router" {
  interface AppLoadContext extends AppServices {
    /** The signed-in user and their admin status, read once per request. */
    viewer: Viewer;
    /** The request's id, as its `X-Request-Id` answer header names it (for the error page). */
    requestId?: string;
    /**
     * Counts a post against its client's hourly limit of that name, one a feature declares in
     * its contract (`limits`; server/rate-limits.ts): the seconds to wait, or 0 to go ahead.
     * Absent where nothing is limited (tests of loaders and actions).
     */
    limit?: (name: string) => Promise<number>;
    /** The online applications' data key and private document store (docs/behaviour.md §32). */
    applications: ApplicationServices;
    /** The listing feeds, kept until the data changes (docs/behaviour.md §28). */
    feeds: FeedCache;
    /**
     * 'Erase this person' (docs/behaviour.md §27), every feature's part (server/features.ts):
     * how many of the person's messages, applications and alerts went.
     */
    erasePerson: (email: string, by: { actorId: string | null }) => Promise<number>;
    /**
     * Plans a feature's delayed job (its contract's `delayedJobs`), in the caller's transaction
     * when given one. Absent where no scheduler runs (tests of single pages).
     */
    scheduler?: Pick<Scheduler, "at">;
  }
}
