// Featured listings (docs/behaviour.md §19): the home page's 'Featured Properties'. Until the
// staff change anything, the listings whose address is one of the default featured addresses
// (app/domain/company.ts, in that order); from the first change on, the stored list
// `site_settings.content.featured` of listing references, in the staff's order.
import { company } from "~/domain/company";
import type { Collection } from "~/domain/listing-kinds";
import type { Queryable } from "~/shared/db.server";

export interface FeaturedRef {
  collection: Collection;
  id: string;
}

export interface FeaturedEntry extends FeaturedRef {
  address: string;
}

const same = (a: FeaturedRef, b: FeaturedRef) => a.collection === b.collection && a.id === b.id;

/** The featured listings that exist, in order, with their addresses. */
export async function featuredEntries(q: Queryable): Promise<FeaturedEntry[]> {
  const [row] = await q.query<{ featured: FeaturedRef[] | null }>(
    "SELECT content->'featured' AS featured FROM site_settings WHERE id",
  );
  const stored = Array.isArray(row?.featured) ? row.featured : null;
  if (stored === null) {
    // The defaults: by exact address (trailing spaces count), in the list's order.
    return q.query<FeaturedEntry>(
      `SELECT l.collection, l.id, l.address FROM listings l
         JOIN unnest($1::text[]) WITH ORDINALITY AS f(address, n) ON f.address = l.address
        WHERE ${VISIBLE}
        ORDER BY f.n, l.collection DESC, l.created_at, l.id`,
      [company.featuredAddresses],
    );
  }
  if (stored.length === 0) return [];
  const rows = await q.query<FeaturedEntry>(
    `SELECT l.collection, l.id, l.address FROM listings l
       JOIN jsonb_to_recordset($1::jsonb) AS f(collection text, id text)
         ON f.collection = l.collection AND f.id = l.id
      WHERE ${VISIBLE}`,
    [JSON.stringify(stored)],
  );
  return stored.flatMap((ref) => rows.filter((r) => same(r, ref)));
}

/** Listings the public may see (docs/behaviour.md §21: not deleted). */
const VISIBLE = "true";

export async function isFeatured(q: Queryable, ref: FeaturedRef): Promise<boolean> {
  return (await featuredEntries(q)).some((e) => same(e, ref));
}

/** Writes the list (materialising the defaults on the first change); call inside a transaction. */
async function store(tx: Queryable, refs: FeaturedRef[]) {
  const list = refs.map(({ collection, id }) => ({ collection, id }));
  await tx.query(
    `UPDATE site_settings SET content = jsonb_set(content, '{featured}', $1::jsonb),
       updated_at = $2 WHERE id`,
    [JSON.stringify(list), new Date().toISOString()],
  );
}

/** Locks the settings row for a read-modify-write of the list. */
async function lockSettings(tx: Queryable) {
  await tx.query("INSERT INTO site_settings (id) VALUES (true) ON CONFLICT (id) DO NOTHING");
  await tx.query("SELECT 1 FROM site_settings WHERE id FOR UPDATE");
}

/** Features a listing (at the end of the list) or removes it; call inside a transaction. */
export async function setFeatured(tx: Queryable, ref: FeaturedRef, featured: boolean) {
  await lockSettings(tx);
  const current = await featuredEntries(tx);
  const without = current.filter((e) => !same(e, ref));
  await store(tx, featured ? [...without, ref] : without);
}

/**
 * Puts the featured listings in this order; listings featured meanwhile but missing from
 * `order` keep their place after it, and references that are no longer featured are ignored.
 */
export async function reorderFeatured(tx: Queryable, order: FeaturedRef[]) {
  await lockSettings(tx);
  const current = await featuredEntries(tx);
  const ordered = order.flatMap((ref) => current.filter((e) => same(e, ref)));
  const rest = current.filter((e) => !ordered.some((o) => same(o, e)));
  await store(tx, [...ordered, ...rest]);
}

/**
 * A deleted listing leaves the list, in the delete's transaction and before the row goes (the
 * defaults are materialised without it, so a new listing at that address is not featured).
 */
export async function dropFeatured(tx: Queryable, ref: FeaturedRef) {
  await lockSettings(tx);
  const current = await featuredEntries(tx);
  if (!current.some((e) => same(e, ref))) return;
  await store(
    tx,
    current.filter((e) => !same(e, ref)),
  );
}

/**
 * Sets the whole list (settings import): the listings that exist, in this order; null goes back
 * to the default featured addresses. Call inside a transaction.
 */
export async function replaceFeatured(tx: Queryable, refs: FeaturedRef[] | null) {
  await lockSettings(tx);
  if (refs === null) {
    await tx.query("UPDATE site_settings SET content = content - 'featured' WHERE id");
    return;
  }
  const existing = await tx.query<FeaturedRef>(
    `SELECT l.collection, l.id FROM listings l
       JOIN jsonb_to_recordset($1::jsonb) AS f(collection text, id text)
         ON f.collection = l.collection AND f.id = l.id`,
    [JSON.stringify(refs)],
  );
  await store(
    tx,
    refs.filter((ref) => existing.some((e) => same(e, ref))),
  );
}
