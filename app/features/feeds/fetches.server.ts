// Who fetched each feed last (docs/behaviour.md §28): one small upsert per fetch, never one per
// listing, kept in `feed_fetches` (db/migrations/0013).
import type { Queryable } from "~/shared/db.server";
import { type FeedName, isFeedName } from "./feed-parts";

/** The longest user agent kept (a longer one is cut). */
export const USER_AGENT_MAX = 300;

export interface FeedFetch {
  feed: FeedName;
  fetchedAt: string;
  userAgent: string;
  /** The listings that fetch was sent. */
  listingCount: number;
  /** Fetches counted since the first. */
  fetches: number;
}

export async function recordFetch(
  db: Queryable,
  feed: FeedName,
  userAgent: string | null,
  listingCount: number,
): Promise<void> {
  await db.query(
    `INSERT INTO feed_fetches (feed, fetched_at, user_agent, listing_count)
     VALUES ($1, now(), $2, $3)
     ON CONFLICT (feed) DO UPDATE SET fetched_at = excluded.fetched_at,
       user_agent = excluded.user_agent, listing_count = excluded.listing_count,
       fetches = feed_fetches.fetches + 1`,
    [feed, (userAgent ?? "").slice(0, USER_AGENT_MAX), listingCount],
  );
}

export async function lastFetches(db: Queryable): Promise<Map<FeedName, FeedFetch>> {
  const rows = await db.query<{
    feed: string;
    fetched_at: Date | string;
    user_agent: string;
    listing_count: number;
    fetches: string | number;
  }>("SELECT feed, fetched_at, user_agent, listing_count, fetches FROM feed_fetches");
  const fetches = new Map<FeedName, FeedFetch>();
  for (const r of rows) {
    if (!isFeedName(r.feed)) continue;
    fetches.set(r.feed, {
      feed: r.feed,
      fetchedAt: new Date(r.fetched_at).toISOString(),
      userAgent: r.user_agent,
      listingCount: r.listing_count,
      fetches: Number(r.fetches),
    });
  }
  return fetches;
}

/** The change beyond which the network holds a feed until someone confirms it (±20%). */
export const COUNT_SWING_LIMIT = 0.2;

/**
 * Whether the listing count moved by more than 20% since the last fetch (from none to some
 * counts as a swing too; from none to none does not).
 */
export function countSwing(previous: number, now: number): boolean {
  if (previous === 0) return now > 0;
  return Math.abs(now - previous) / previous > COUNT_SWING_LIMIT;
}

/** The warning of a HotPads count that moved by more than 20% since the last fetch. */
export function swingWarning(before: number, now: number): string {
  const change =
    before === 0
      ? ""
      : ` (${now > before ? "+" : "−"}${Math.round((Math.abs(now - before) / before) * 100)}%)`;
  return `The HotPads feed now has ${now} listing${now === 1 ? "" : "s"}; it had ${before} when it was last fetched${change}. The network holds a feed whose count changes by more than ${COUNT_SWING_LIMIT * 100}% until the change is confirmed with it.`;
}
