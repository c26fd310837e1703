import type { Feature } from "~/shared/feature.server";
import { CODE_POSTS_PER_CLIENT_PER_HOUR } from "./sign-in-codes.server";

/** Staff accounts and sign-in (docs/architecture.md, "The feature contract"). */
export const authFeature: Feature<unknown> = {
  name: "auth",
  // Sessions and sign-in flows are carried but not restored (archive.server.ts, NOT_RESTORED):
  // a restored site asks everyone to sign in again.
  // Passkeys hold public keys only; a restored site keeps them working.
  tables: ["users", "admins", "sessions", "login_flows", "staff_passkeys", "staff_listings"],
  // 'E-mail me a code' and 'Sign in' on /sign-in, per client and hour.
  limits: [{ name: "sign-in-code", perHour: () => CODE_POSTS_PER_CLIENT_PER_HOUR }],
  notBackedUp: [
    {
      // Written by server/rate-limit-store.ts for the sign-in and form limits (README.md).
      table: "rate_counters",
      why: "counts per client address for windows of an hour at most (kept a day): stale once a backup is restored, and a backup keeps no client addresses",
    },
    {
      table: "sign_in_codes",
      why: "hashes of sign-in codes and links that end within 15 minutes: nothing to restore, and a backup keeps no secrets",
    },
    {
      table: "passkey_challenges",
      why: "the challenges of passkey ceremonies under way, which end within 5 minutes",
    },
  ],
};
