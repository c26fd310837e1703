// Booked showings (docs/behaviour.md §33): the times a listing still offers, a booking that
// takes one of its slot's seats (the database refuses a second booking of the same seat, so a
// slot never holds more than 'Visitors per slot' even when renters book at once on several
// instances), the private 'Change or cancel' link, and erasure.
import { createHash, randomBytes } from "node:crypto";
import type { Collection } from "~/domain/listing-kinds";
import { type ListingScope, withinScope } from "~/domain/listing-scope";
import { type ShowingHours, type Slot, showingSlots } from "~/domain/showing-slots";
import type { Db, Queryable } from "~/shared/db.server";

/** A booking holds its seat while it is one of these. */
export const LIVE_STATUSES = ["booked", "confirmed"] as const;
export type ShowingStatus = "booked" | "confirmed" | "cancelled" | "completed" | "no-show";

export interface ShowingListing {
  collection: Collection;
  id: string;
  address: string;
}

export interface ShowingPerson {
  name: string;
  email: string;
  phone: string;
  /** 'YYYY-MM-DD' or null. */
  moveIn: string | null;
  people: number | null;
}

export interface Showing extends ShowingPerson {
  id: number;
  listing: ShowingListing;
  start: Date;
  end: Date;
  status: ShowingStatus;
}

export const tokenHash = (token: string) => createHash("sha256").update(token).digest();
/** A private link's token as made here: 32 random bytes, base64url. */
export const isToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
export const makeToken = () => randomBytes(32).toString("base64url");

/** The private 'Change or cancel' page a token opens (the booking's or a reminder's). */
export const manageUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/showings/manage?token=${token}`;

/**
 * The showing a private link opens ($1: the token's hash): the booking's own link, or the link
 * of one of its reminders.
 */
const BY_TOKEN = `(token_hash = $1
  OR id = (SELECT showing_id FROM showing_reminders WHERE showing_reminders.token_hash = $1))`;

/** How many live bookings each start of a listing has, from `from` on. */
async function seatsTaken(
  db: Queryable,
  listing: Pick<ShowingListing, "collection" | "id">,
  from: Date,
): Promise<Map<number, number>> {
  const rows = await db.query<{ startsAt: Date | string; n: number }>(
    `SELECT starts_at AS "startsAt", count(*)::int AS n FROM showings
     WHERE collection = $1 AND listing_id = $2 AND starts_at >= $3
       AND status IN ('booked', 'confirmed')
     GROUP BY starts_at`,
    [listing.collection, listing.id, from],
  );
  return new Map(rows.map((r) => [new Date(r.startsAt).getTime(), r.n]));
}

/** The times a listing offers now, full ones left out. */
export async function freeSlots(
  db: Queryable,
  hours: ShowingHours,
  listing: Pick<ShowingListing, "collection" | "id">,
  now: Date,
): Promise<Slot[]> {
  const taken = await seatsTaken(db, listing, now);
  return showingSlots(hours, now, (start) => taken.get(start.getTime()) ?? 0);
}

export type BookingResult =
  | { ok: true; showing: Showing; token: string }
  | { ok: false; reason: "taken" };

/**
 * Books `start` at a listing for a person: the lowest free seat of the slot, or "taken" when
 * every seat is held. `start` must be one of the times the hours offer (the caller checks).
 */
export async function bookShowing(
  db: Db,
  input: { listing: ShowingListing; start: Date; end: Date; person: ShowingPerson },
  hours: Pick<ShowingHours, "visitorsPerSlot">,
  within?: (tx: Queryable, showing: Showing, token: string) => Promise<void>,
): Promise<BookingResult> {
  return db.transaction((tx) => takeSeat(tx, input, hours, makeToken(), within));
}

/**
 * The lowest free seat of the slot for a person, in the caller's transaction: "taken" when the
 * live bookings already fill 'Visitors per slot' (also after it was lowered, when seats above it
 * are still held) or every seat is held.
 */
async function takeSeat(
  tx: Queryable,
  input: { listing: ShowingListing; start: Date; end: Date; person: ShowingPerson },
  hours: Pick<ShowingHours, "visitorsPerSlot">,
  token: string,
  within?: (tx: Queryable, showing: Showing, token: string) => Promise<void>,
): Promise<BookingResult> {
  const { listing, person } = input;
  const [held] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM showings
     WHERE collection = $1 AND listing_id = $2 AND starts_at = $3
       AND status IN ('booked', 'confirmed')`,
    [listing.collection, listing.id, input.start],
  );
  if ((held?.n ?? 0) >= hours.visitorsPerSlot) return { ok: false, reason: "taken" };
  // Each seat in turn: a seat another booking took meanwhile (committed or not) makes the
  // insert do nothing once that booking commits, and the next seat is tried.
  for (let seat = 1; seat <= hours.visitorsPerSlot; seat++) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO showings (collection, listing_id, listing_address, starts_at, ends_at, seat,
         name, email, phone, move_in, people, token_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT DO NOTHING
       RETURNING id::int AS id`,
      [
        listing.collection,
        listing.id,
        listing.address,
        input.start,
        input.end,
        seat,
        person.name,
        person.email,
        person.phone,
        person.moveIn,
        person.people,
        tokenHash(token),
      ],
    );
    if (!row) continue;
    const showing: Showing = {
      id: row.id,
      listing,
      start: input.start,
      end: input.end,
      status: "booked",
      ...person,
    };
    await within?.(tx, showing, token);
    return { ok: true, showing, token };
  }
  return { ok: false, reason: "taken" };
}

export type MoveResult =
  | { ok: true; from: Showing; to: Showing; token: string }
  | { ok: false; reason: "gone" | "taken" };

/**
 * 'Choose another time': in one transaction, the showing the link opens (still live and ahead,
 * locked), a seat at the new time for the same person, then the old one cancelled. A link
 * cancelled, past or moved meanwhile ("gone"), or a time taken meanwhile, changes nothing.
 */
export async function moveShowing(
  db: Db,
  token: string,
  to: { start: Date; end: Date },
  hours: Pick<ShowingHours, "visitorsPerSlot">,
  now: Date,
  within?: (tx: Queryable, from: Showing, to: Showing, token: string) => Promise<void>,
): Promise<MoveResult> {
  if (!isToken(token)) return { ok: false, reason: "gone" };
  return db.transaction(async (tx) => {
    const [row] = await tx.query<ShowingRow>(
      `SELECT ${SHOWING_COLUMNS} FROM showings
       WHERE ${BY_TOKEN} AND status IN ('booked', 'confirmed') AND starts_at > $2
       FOR UPDATE`,
      [tokenHash(token), now],
    );
    if (!row) return { ok: false, reason: "gone" } as const;
    const from = toShowing(row);
    const { name, email, phone, moveIn, people } = from;
    const newToken = makeToken();
    const booked = await takeSeat(
      tx,
      { listing: from.listing, ...to, person: { name, email, phone, moveIn, people } },
      hours,
      newToken,
    );
    if (!booked.ok) return booked;
    await tx.query("UPDATE showings SET status = 'cancelled', status_at = now() WHERE id = $1", [
      from.id,
    ]);
    await within?.(tx, from, booked.showing, newToken);
    return { ok: true, from, to: booked.showing, token: newToken } as const;
  });
}

const SHOWING_COLUMNS = `id::int AS id, collection, listing_id AS "listingId",
  listing_address AS "listingAddress", starts_at AS "startsAt", ends_at AS "endsAt", status,
  name, email, phone, to_char(move_in, 'YYYY-MM-DD') AS "moveIn", people`;

interface ShowingRow {
  id: number;
  collection: Collection;
  listingId: string;
  listingAddress: string;
  startsAt: Date | string;
  endsAt: Date | string;
  status: ShowingStatus;
  name: string;
  email: string;
  phone: string;
  moveIn: string | null;
  people: number | null;
}

const toShowing = (r: ShowingRow): Showing => ({
  id: r.id,
  listing: { collection: r.collection, id: r.listingId, address: r.listingAddress },
  start: new Date(r.startsAt),
  end: new Date(r.endsAt),
  status: r.status,
  name: r.name,
  email: r.email,
  phone: r.phone,
  moveIn: r.moveIn,
  people: r.people,
});

/** The showing a private link opens, or null (an unknown or malformed token). */
export async function showingByToken(db: Queryable, token: string): Promise<Showing | null> {
  if (!isToken(token)) return null;
  const [row] = await db.query<ShowingRow>(
    `SELECT ${SHOWING_COLUMNS} FROM showings WHERE ${BY_TOKEN}`,
    [tokenHash(token)],
  );
  return row ? toShowing(row) : null;
}

/**
 * Cancels a showing by its private link; its seat is free at once. Returns the showing as it
 * was when it was still live (null: unknown, or not live any more).
 */
export async function cancelByToken(
  db: Db,
  token: string,
  within?: (tx: Queryable, showing: Showing) => Promise<void>,
): Promise<Showing | null> {
  if (!isToken(token)) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx.query<ShowingRow>(
      `UPDATE showings SET status = 'cancelled', status_at = now()
       WHERE ${BY_TOKEN} AND status IN ('booked', 'confirmed')
       RETURNING ${SHOWING_COLUMNS}`,
      [tokenHash(token)],
    );
    if (!row) return null;
    const showing = toShowing(row);
    await within?.(tx, showing);
    return showing;
  });
}

/**
 * 'Confirm I'm coming' by a private link: a booked showing still ahead becomes confirmed.
 * Returns the showing (confirmed now or before), or null when the link opens none live.
 */
export async function confirmByToken(db: Queryable, token: string, now: Date) {
  if (!isToken(token)) return null;
  const [row] = await db.query<ShowingRow>(
    `UPDATE showings SET status = 'confirmed', status_at = now()
     WHERE ${BY_TOKEN} AND status = 'booked' AND starts_at > $2
     RETURNING ${SHOWING_COLUMNS}`,
    [tokenHash(token), now],
  );
  if (row) return toShowing(row);
  const showing = await showingByToken(db, token);
  return showing?.status === "confirmed" && showing.start > now ? showing : null;
}

/**
 * A reminder `hoursBefore` of a showing, taken once in the caller's transaction: the showing
 * (still live and ahead) and a new private link for the reminder, or null when the showing was
 * cancelled, moved or is past, or this reminder was sent already.
 */
export async function takeReminder(
  tx: Queryable,
  id: number,
  hoursBefore: number,
  now: Date,
): Promise<{ showing: Showing; token: string } | null> {
  const [row] = await tx.query<ShowingRow>(
    `SELECT ${SHOWING_COLUMNS} FROM showings
     WHERE id = $1 AND status IN ('booked', 'confirmed') AND starts_at > $2 FOR UPDATE`,
    [id, now],
  );
  if (!row) return null;
  const token = makeToken();
  const taken = await tx.query(
    `INSERT INTO showing_reminders (showing_id, hours_before, token_hash) VALUES ($1, $2, $3)
     ON CONFLICT (showing_id, hours_before) DO NOTHING RETURNING showing_id`,
    [id, hoursBefore, tokenHash(token)],
  );
  return taken.length > 0 ? { showing: toShowing(row), token } : null;
}

/**
 * 'Cancel if not confirmed': a showing still booked (not confirmed), ahead, and starting by
 * `latestStart` is cancelled in the caller's transaction; returns it, or null when it was
 * confirmed, cancelled or moved, or its deadline has not come.
 */
export async function cancelUnconfirmed(tx: Queryable, id: number, now: Date, latestStart: Date) {
  const [row] = await tx.query<ShowingRow>(
    `UPDATE showings SET status = 'cancelled', status_at = now()
     WHERE id = $1 AND status = 'booked' AND starts_at > $2 AND starts_at <= $3
     RETURNING ${SHOWING_COLUMNS}`,
    [id, now, latestStart],
  );
  return row ? toShowing(row) : null;
}

/**
 * Staff's 'Completed', 'No-show' or 'Cancel' on a live showing of the listings in `scope`, in
 * the caller's transaction, when it starts between `from` and `to`: the showing as it is now,
 * or null (unknown, out of scope, out of those times, or not live any more).
 */
export async function setShowingStatus(
  tx: Queryable,
  id: number,
  status: "completed" | "no-show" | "cancelled",
  when: { from: Date; to: Date },
  scope: ListingScope = null,
): Promise<Showing | null> {
  const params: unknown[] = [id, status, when.from, when.to];
  const within = withinScope(scope, params);
  const [row] = await tx.query<ShowingRow>(
    `UPDATE showings SET status = $2, status_at = now()
     WHERE id = $1 AND status IN ('booked', 'confirmed') AND starts_at > $3 AND starts_at < $4
       AND ${within}
     RETURNING ${SHOWING_COLUMNS}`,
    params,
  );
  return row ? toShowing(row) : null;
}

/**
 * Showings from `from` to `to`, in time order (the staff's agenda): of the listings in `scope`
 * only, for a Leasing agent limited to 'Only these listings'.
 */
export async function showingsBetween(
  db: Queryable,
  from: Date,
  to: Date,
  scope: ListingScope = null,
): Promise<Showing[]> {
  const params: unknown[] = [from, to];
  const within = withinScope(scope, params);
  const rows = await db.query<ShowingRow>(
    `SELECT ${SHOWING_COLUMNS} FROM showings WHERE starts_at >= $1 AND starts_at < $2
       AND ${within}
     ORDER BY starts_at, id`,
    params,
  );
  return rows.map(toShowing);
}

/** The newest bookings, whatever their status (the Inbox's items of kind 'Showing'). */
export async function newestShowings(
  db: Queryable,
  limit: number,
  scope: ListingScope = null,
): Promise<Showing[]> {
  const params: unknown[] = [limit];
  const within = withinScope(scope, params);
  const rows = await db.query<ShowingRow>(
    `SELECT ${SHOWING_COLUMNS} FROM showings WHERE ${within}
     ORDER BY created_at DESC, id DESC LIMIT $1`,
    params,
  );
  return rows.map(toShowing);
}

/** 'Erase this person': their showings go. */
export async function eraseShowingsOf(db: Queryable, email: string): Promise<number> {
  const rows = await db.query<{ id: number }>(
    "DELETE FROM showings WHERE lower(email) = lower($1) RETURNING id::int AS id",
    [email.trim()],
  );
  return rows.length;
}

/** Showings that started more than `days` ago go, with the renter's details. */
export async function purgeOldShowings(db: Queryable, days: number, now = new Date()) {
  const rows = await db.query<{ id: number }>(
    "DELETE FROM showings WHERE starts_at < $1 RETURNING id::int AS id",
    [new Date(now.getTime() - days * 86_400_000)],
  );
  return rows.length;
}
