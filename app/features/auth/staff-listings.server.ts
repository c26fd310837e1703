// 'Only these listings' of a Leasing agent (docs/behaviour.md §6, "Staff roles"): stored per
// grant (staff_listings), read into the Viewer of each request (viewer.server.ts).
import type { Collection } from "~/domain/listing-kinds";
import type { ListingScope } from "~/domain/listing-scope";
import type { Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { emailOrNull } from "./emails";
import type { Role } from "./permissions";
import type { SessionUser } from "./viewer";

/** Listings one agent may be limited to; more is "every listing" in practice. */
export const STAFF_LISTINGS_MAX = 200;

/** The scope of a signed-in person: only a Leasing agent's grant limits; else null. */
export async function listingScopeOf(
  db: Queryable,
  user: SessionUser | null,
  role: Role | null,
): Promise<ListingScope> {
  if (!user || role !== "leasing-agent") return null;
  const email = user.emailVerified ? emailOrNull(user.email) : null;
  const rows = await db.query<{ collection: Collection; id: string }>(
    `SELECT s.collection, s.listing_id AS id FROM staff_listings s JOIN admins a ON a.email = s.email
     WHERE (a.uid = $1 AND a.uid_issuer = $3) OR ($2::text IS NOT NULL AND a.email = $2::text)
     ORDER BY s.collection, s.listing_id`,
    [user.sub, email, user.issuer],
  );
  return rows.length > 0 ? rows : null;
}

/** Each grant's listings, by address, for the 'Staff' and 'Leasing agents' pages. */
export async function staffListings(
  db: Queryable,
): Promise<Map<string, { collection: Collection; id: string }[]>> {
  const rows = await db.query<{ email: string; collection: Collection; id: string }>(
    "SELECT email, collection, listing_id AS id FROM staff_listings ORDER BY email, collection, listing_id",
  );
  const byEmail = new Map<string, { collection: Collection; id: string }[]>();
  for (const { email, ...listing } of rows) {
    byEmail.set(email, [...(byEmail.get(email) ?? []), listing]);
  }
  return byEmail;
}

export type StaffListingChange = { ok: true } | { ok: false; reason: "not-agent" | "too-many" };

/** Adds a listing to a Leasing agent's 'Only these listings'. */
export async function addStaffListing(
  db: Queryable,
  email: string,
  listing: { collection: Collection; id: string },
  by: string | null,
): Promise<StaffListingChange> {
  const [grant] = await db.query<{ role: Role; count: number }>(
    `SELECT role, (SELECT count(*)::int FROM staff_listings WHERE email = $1) AS count
     FROM admins WHERE email = $1`,
    [email],
  );
  if (grant?.role !== "leasing-agent") return { ok: false, reason: "not-agent" };
  if (grant.count >= STAFF_LISTINGS_MAX) return { ok: false, reason: "too-many" };
  await db.query(
    `INSERT INTO staff_listings (email, collection, listing_id) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [email, listing.collection, listing.id],
  );
  logEvent("staff listings changed", by, { email, added: `${listing.collection}/${listing.id}` });
  return { ok: true };
}

/** Takes a listing off a Leasing agent's 'Only these listings' (the last: every listing again). */
export async function removeStaffListing(
  db: Queryable,
  email: string,
  listing: { collection: Collection; id: string },
  by: string | null,
): Promise<void> {
  const removed = await db.query(
    `DELETE FROM staff_listings WHERE email = $1 AND collection = $2 AND listing_id = $3
     RETURNING email`,
    [email, listing.collection, listing.id],
  );
  if (removed.length > 0) {
    logEvent("staff listings changed", by, {
      email,
      removed: `${listing.collection}/${listing.id}`,
    });
  }
}
