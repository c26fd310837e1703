import type { Queryable } from "~/shared/db.server";

export interface StaleProperty {
  id: string;
  address: string;
  /** YYYY-MM-DD (UTC). */
  checked: string;
}

/**
 * Available properties whose availability nobody confirmed for `days` days at `now`, the
 * longest unconfirmed first (docs/behaviour.md §30): what the weekly stale e-mail lists.
 */
export function staleProperties(q: Queryable, now: Date, days: number): Promise<StaleProperty[]> {
  return q.query<StaleProperty>(
    `SELECT id, address,
       to_char(availability_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS checked
     FROM listings
     WHERE collection = 'properties' AND currently_available
       AND availability_checked_at < $1::timestamptz - make_interval(days => $2)
     ORDER BY availability_checked_at, id`,
    [now.toISOString(), days],
  );
}
