// Change history (docs/behaviour.md §21): every admin change of a listing, written by the
// change's own transaction (ListingWrites), with who, when and what changed.
import { LISTING_FIELD_LABELS, type ListingFieldValues } from "~/domain/listing-fields";
import type { Collection } from "~/domain/listing-kinds";
import type { Queryable } from "~/shared/db.server";
import { FIELD_COLUMNS } from "./queries.server";

/**
 * A listing as it was at one moment: what 'Restore this version' brings back. Entries written
 * before the facts existed have none (restored as empty).
 */
export interface ListingSnapshot extends ListingFieldValues {
  image_urls: string[];
  image_captions: Record<string, string>;
}

export interface Actor {
  name: string | null;
  email: string | null;
}

export type HistoryAction =
  | "recorded"
  | "added"
  | "imported"
  | "saved"
  | "availability"
  | "photos-added"
  | "photo-removed"
  | "photo-erased"
  | "restored"
  | "deleted"
  | "undeleted";

/** One line of "what changed". */
export type Change =
  | { field: SnapshotField; before: unknown; after: unknown }
  | { photos: "added" | "removed" | "erased"; count: number }
  | { photos: "reordered" }
  | { caption: number; before: string; after: string };

export type SnapshotField = Exclude<keyof ListingSnapshot, "image_urls" | "image_captions">;

export const FIELD_LABELS: Record<SnapshotField, string> = LISTING_FIELD_LABELS;

export interface HistoryEntry {
  seq: number;
  at: string;
  by_name: string | null;
  by_email: string | null;
  action: HistoryAction;
  changes: Change[];
  after: ListingSnapshot;
}

const SNAPSHOT_COLUMNS = `image_urls, image_captions, ${FIELD_COLUMNS}`;

/** The record as it is now in this transaction (null when there is none). */
export async function snapshotOf(
  tx: Queryable,
  collection: Collection,
  id: string,
): Promise<(ListingSnapshot & { updated_at: string }) | null> {
  const [row] = await tx.query<ListingSnapshot & { updated_at: string }>(
    `SELECT ${SNAPSHOT_COLUMNS}, updated_at FROM listings WHERE collection = $1 AND id = $2`,
    [collection, id],
  );
  if (!row) return null;
  return { ...row, image_captions: row.image_captions ?? {} };
}

export function strip(snapshot: ListingSnapshot & { updated_at?: string }): ListingSnapshot {
  const { updated_at: _ignored, ...rest } = snapshot;
  return rest;
}

/** What changed from `before` to `after`, field by field and photo by photo. */
export function diff(before: ListingSnapshot | null, after: ListingSnapshot): Change[] {
  if (!before) return [];
  const changes: Change[] = [];
  for (const field of Object.keys(FIELD_LABELS) as SnapshotField[]) {
    // A fact missing from an entry written before the facts existed is the same as none.
    if ((before[field] ?? null) !== (after[field] ?? null)) {
      changes.push({ field, before: before[field] ?? null, after: after[field] ?? null });
    }
  }
  const added = after.image_urls.filter((u) => !before.image_urls.includes(u));
  const removed = before.image_urls.filter((u) => !after.image_urls.includes(u));
  if (added.length > 0) changes.push({ photos: "added", count: added.length });
  if (removed.length > 0) changes.push({ photos: "removed", count: removed.length });
  const kept = after.image_urls.filter((u) => before.image_urls.includes(u));
  const keptBefore = before.image_urls.filter((u) => after.image_urls.includes(u));
  if (kept.join("\n") !== keptBefore.join("\n")) changes.push({ photos: "reordered" });
  after.image_urls.forEach((url, i) => {
    const was = before.image_urls.includes(url) ? (before.image_captions[url] ?? "") : "";
    const now = after.image_captions[url] ?? "";
    if (was !== now) changes.push({ caption: i + 1, before: was, after: now });
  });
  return changes;
}

/**
 * Records one change, in the caller's transaction. A listing changed for the first time since
 * history began gets its earlier state recorded first ('recorded'), so it can be restored too.
 */
export async function recordChange(
  tx: Queryable,
  entry: {
    collection: Collection;
    id: string;
    actor: Actor | null;
    action: HistoryAction;
    before: (ListingSnapshot & { updated_at?: string }) | null;
    after: ListingSnapshot;
    /** When (default: now); a deletion passes its own time, which purging compares with. */
    at?: Date;
    /** What changed, when the snapshots cannot tell (an erased photo); default: their diff. */
    changes?: Change[];
  },
) {
  const { collection, id, actor, action } = entry;
  const before = entry.before ? strip(entry.before) : null;
  if (before && action !== "undeleted") {
    const [any] = await tx.query(
      "SELECT 1 FROM listing_history WHERE collection = $1 AND id = $2 LIMIT 1",
      [collection, id],
    );
    if (!any) {
      await tx.query(
        `INSERT INTO listing_history (collection, id, at, action, after)
         VALUES ($1, $2, $3, 'recorded', $4::jsonb)`,
        [
          collection,
          id,
          entry.before?.updated_at
            ? new Date(entry.before.updated_at).toISOString()
            : new Date().toISOString(),
          JSON.stringify(before),
        ],
      );
    }
  }
  await tx.query(
    `INSERT INTO listing_history (collection, id, at, by_name, by_email, action, changes, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb)`,
    [
      collection,
      id,
      (entry.at ?? new Date()).toISOString(),
      actor?.name ?? null,
      actor?.email ?? null,
      action,
      JSON.stringify(entry.changes ?? diff(before, entry.after)),
      before ? JSON.stringify(before) : null,
      JSON.stringify(strip(entry.after)),
    ],
  );
}

/** A listing's history, newest first. */
export async function listHistory(
  q: Queryable,
  collection: Collection,
  id: string,
): Promise<HistoryEntry[]> {
  const rows = await q.query<HistoryEntry & { seq: string | number; at: string | Date }>(
    `SELECT seq, at, by_name, by_email, action, changes, after FROM listing_history
      WHERE collection = $1 AND id = $2 ORDER BY seq DESC`,
    [collection, id],
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq), at: new Date(r.at).toISOString() }));
}

export async function historyEntry(
  q: Queryable,
  collection: Collection,
  id: string,
  seq: number,
): Promise<HistoryEntry | null> {
  const [row] = await q.query<HistoryEntry & { seq: string | number }>(
    `SELECT seq, at, by_name, by_email, action, changes, after FROM listing_history
      WHERE collection = $1 AND id = $2 AND seq = $3`,
    [collection, id, seq],
  );
  return row ? { ...row, seq: Number(row.seq), at: new Date(row.at).toISOString() } : null;
}

/** A photo only the history of a listing still names (its copy waits in the private trash). */
export interface HistoryOnlyPhoto {
  url: string;
  caption: string;
}

const urlsIn = (snapshot: Partial<ListingSnapshot> | null | undefined): string[] =>
  Array.isArray(snapshot?.image_urls) ? snapshot.image_urls : [];

/**
 * The photos a listing's history names that the listing itself no longer shows, newest first,
 * each with its latest caption: what 'Erase for good' can erase (docs/behaviour.md §21).
 */
export async function historyOnlyPhotos(
  q: Queryable,
  collection: Collection,
  id: string,
  current: string[],
): Promise<HistoryOnlyPhoto[]> {
  const rows = await q.query<{ before: ListingSnapshot | null; after: ListingSnapshot }>(
    `SELECT before, after FROM listing_history WHERE collection = $1 AND id = $2 ORDER BY seq DESC`,
    [collection, id],
  );
  const found = new Map<string, string>();
  for (const row of rows) {
    for (const snapshot of [row.after, row.before]) {
      for (const url of urlsIn(snapshot)) {
        if (current.includes(url) || found.has(url)) continue;
        found.set(url, snapshot?.image_captions?.[url] ?? "");
      }
    }
  }
  return [...found].map(([url, caption]) => ({ url, caption }));
}

/** A snapshot without one photo (and its caption): what an erased photo leaves behind. */
export function withoutPhoto<T extends Partial<ListingSnapshot> | null>(
  snapshot: T,
  url: string,
): T {
  if (!snapshot || !Array.isArray(snapshot.image_urls)) return snapshot;
  const { [url]: _erased, ...captions } = snapshot.image_captions ?? {};
  return {
    ...snapshot,
    image_urls: snapshot.image_urls.filter((u) => u !== url),
    ...(snapshot.image_captions ? { image_captions: captions } : {}),
  };
}
