import type { Feature } from "~/shared/feature.server";

/** Staff accounts and sign-in (docs/architecture.md, "The feature contract"). */
export const authFeature: Feature<unknown> = {
  name: "auth",
  // Sessions and sign-in flows are carried but not restored (archive.server.ts, NOT_RESTORED):
  // a restored site asks everyone to sign in again.
  tables: ["users", "admins", "sessions", "login_flows"],
  notBackedUp: [
    {
      // Written by server/rate-limit-store.ts for the sign-in and form limits (README.md).
      table: "rate_counters",
      why: "counts per client address for windows of an hour at most (kept a day): stale once a backup is restored, and a backup keeps no client addresses",
    },
  ],
};
