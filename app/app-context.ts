import type { ApplicationServices } from "~/features/applications/index.server";
import type { Viewer } from "~/features/auth/viewer";
import type { FeedCache } from "~/features/feeds/index.server";
import type { ImageStore } from "~/features/images/storage.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";

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
     * Counts an inquiry against its client's hourly limit (INQUIRY_RATE_LIMIT): the seconds to
     * wait, or 0 to go ahead (server/rate-limits.ts).
     */
    limitInquiry?: () => Promise<number>;
    /** The same for 'Notify me' and 'E-mail me new matches' (docs/behaviour.md §31). */
    limitAlert?: () => Promise<number>;
    /** The same for starting an online application and 'Save and finish later' (§32). */
    limitApplication?: () => Promise<number>;
    /** The online applications' data key and private document store (docs/behaviour.md §32). */
    applications: ApplicationServices;
    /** The listing feeds, kept until the data changes (docs/behaviour.md §28). */
    feeds: FeedCache;
  }
}
