// 'Activity' (docs/behaviour.md §6, "Activity"): the audit events staff and operators cause,
// stored as they are logged (app/shared/events.server.ts), listed for Owners, kept
// ACTIVITY_RETENTION_DAYS.
import type { Db, Queryable } from "~/shared/db.server";
import type { AuditSink } from "~/shared/events.server";
import { rootLogger } from "~/shared/logger.server";
import type { PeriodicJob } from "~/shared/scheduler.server";

export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityItem {
  id: number;
  /** ISO 8601. */
  at: string;
  who: string | null;
  kind: string;
  details: Record<string, unknown>;
}

/** Details kept with an event: short values only (ids, counts, roles, staff addresses). */
function kept(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === "number" || typeof value === "boolean") out[key] = value;
    else if (typeof value === "string") out[key] = value.slice(0, 300);
  }
  return out;
}

/**
 * Stores each audit event of this site. Written beside the request, never in its way: a
 * failed write is logged and the request goes on. Writes are chained so events are stored
 * in the order they were logged: on a pool, two inserts started together may otherwise
 * commit in either order and 'Activity' would list a request's steps backwards.
 */
export function activityRecorder(db: Db): (...event: Parameters<AuditSink>) => Promise<void> {
  let previous: Promise<void> = Promise.resolve();
  return (event, who, details) => {
    const row = [who?.slice(0, 320) ?? null, event, JSON.stringify(kept(details))];
    previous = previous.then(() =>
      db.query("INSERT INTO activity_events (who, kind, details) VALUES ($1, $2, $3)", row).then(
        () => undefined,
        (error: unknown) => {
          rootLogger().warn({ err: error, event }, "Could not store an activity event");
        },
      ),
    );
    return previous;
  };
}

export interface ActivityFilter {
  who?: string;
  kind?: string;
  page: number;
}

/** Newest first, 50 a page, by person and by kind. */
export async function listActivity(
  db: Queryable,
  filter: ActivityFilter,
): Promise<{ items: ActivityItem[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.who) {
    params.push(filter.who);
    where.push(`who = $${params.length}`);
  }
  if (filter.kind) {
    params.push(filter.kind);
    where.push(`kind = $${params.length}`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM activity_events ${clause}`,
    params,
  );
  const rows = await db.query<{
    id: number;
    at: Date | string;
    who: string | null;
    kind: string;
    details: Record<string, unknown> | string;
  }>(
    `SELECT id::int AS id, at, who, kind, details FROM activity_events ${clause}
     ORDER BY at DESC, id DESC LIMIT ${ACTIVITY_PAGE_SIZE} OFFSET $${params.length + 1}`,
    [...params, (filter.page - 1) * ACTIVITY_PAGE_SIZE],
  );
  return {
    total: count?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      who: r.who,
      kind: r.kind,
      details: typeof r.details === "string" ? JSON.parse(r.details) : r.details,
    })),
  };
}

/** Who and what the filters offer: every person and kind in the stored events. */
export async function activityChoices(db: Queryable) {
  const people = await db.query<{ who: string }>(
    "SELECT DISTINCT who FROM activity_events WHERE who IS NOT NULL ORDER BY who",
  );
  const kinds = await db.query<{ kind: string }>(
    "SELECT DISTINCT kind FROM activity_events ORDER BY kind",
  );
  return { people: people.map((p) => p.who), kinds: kinds.map((k) => k.kind) };
}

/** Deletes events older than `days`; returns how many. */
export async function purgeActivity(db: Queryable, days: number, now = new Date()) {
  const rows = await db.query("DELETE FROM activity_events WHERE at < $1 RETURNING id", [
    new Date(now.getTime() - days * 86_400_000),
  ]);
  return rows.length;
}

/** ACTIVITY_RETENTION_DAYS: older events go (hourly, as closed leads do). */
export function activityRetentionJob(db: Db, days: number): PeriodicJob {
  return {
    name: "activity.retention",
    everySeconds: 3600,
    run: async () => {
      const n = await purgeActivity(db, days);
      return n > 0 ? `Deleted ${n} activity events.` : undefined;
    },
  };
}
