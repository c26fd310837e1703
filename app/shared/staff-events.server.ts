// What staff did to an item, with who and when: one history of the same shape for leads and
// applications (docs/architecture.md, "The feature contract"; docs/behaviour.md §27, §32).
import type { Queryable } from "./db.server";

/** Each kind of item's history table and the column naming the item. */
const HISTORIES = {
  lead: { table: "lead_events", item: "lead_id" },
  application: { table: "application_events", item: "application_id" },
} as const;

export type StaffItemKind = keyof typeof HISTORIES;

export interface StaffEvent<Action extends string = string> {
  itemId: number;
  at: Date;
  byEmail: string | null;
  action: Action;
  detail: Record<string, unknown>;
}

/** Records one event in the caller's transaction (`by`: the staff member, null for the site). */
export async function recordStaffEvent(
  q: Queryable,
  kind: StaffItemKind,
  itemId: number,
  by: string | null,
  action: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const { table, item } = HISTORIES[kind];
  await q.query(
    `INSERT INTO ${table} (${item}, by_email, action, detail) VALUES ($1, $2, $3, $4::jsonb)`,
    [itemId, by, action, JSON.stringify(detail)],
  );
}

/** The events of these items, in the order they happened (or the newest first). */
export function staffEventsOf<Action extends string>(
  q: Queryable,
  kind: StaffItemKind,
  itemIds: readonly number[],
  { newestFirst = false }: { newestFirst?: boolean } = {},
): Promise<StaffEvent<Action>[]> {
  if (itemIds.length === 0) return Promise.resolve([]);
  const { table, item } = HISTORIES[kind];
  return q.query<StaffEvent<Action>>(
    `SELECT ${item}::int AS "itemId", at, by_email AS "byEmail", action, detail
     FROM ${table} WHERE ${item} = ANY($1::bigint[]) ORDER BY id ${newestFirst ? "DESC" : ""}`,
    [itemIds],
  );
}

/** How many times this action was recorded for the item. */
export async function countStaffEvents(
  q: Queryable,
  kind: StaffItemKind,
  itemId: number,
  action: string,
): Promise<number> {
  const { table, item } = HISTORIES[kind];
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${item} = $1 AND action = $2`,
    [itemId, action],
  );
  return row?.n ?? 0;
}
