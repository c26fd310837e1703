// "No photo lost or orphaned", checked: every file a record names exists, and every file in the
// image store belongs to a record (no temporary or staged leftovers, no folder without listing).
import fs from "node:fs/promises";
import path from "node:path";
import type { Collection } from "~/domain/listing-kinds";
import { DiskImageStore, type ImageStore } from "~/features/images/storage.server";
import type { Queryable } from "~/shared/db.server";

export async function storageProblems(db: Queryable, store: ImageStore): Promise<string[]> {
  const rows = await db.query<{ collection: Collection; id: string; image_urls: string[] }>(
    "SELECT collection, id, image_urls FROM listings",
  );
  const problems: string[] = [];
  const referenced = new Set<string>();
  for (const row of rows) {
    for (const url of row.image_urls) {
      const files = store.filesOf(url);
      if (files.length === 0)
        problems.push(`${row.id} names a URL that is no stored photo: ${url}`);
      for (const file of files) {
        referenced.add(file);
        const present =
          store instanceof DiskImageStore ? await exists(file) : await store.exists(urlOf(file));
        if (!present) problems.push(`${row.id} names a missing file: ${file}`);
      }
    }
  }
  const folders = new Set(rows.map((r) => store.folder(r.collection, r.id)));
  if (!(store instanceof DiskImageStore)) {
    // A bucket: every object must be a referenced photo; temporary files are local.
    for (const key of await store.keys()) {
      // The trash and the site's own files, as on disk below.
      if (key.startsWith(".trash/") || key.startsWith("site/")) continue;
      if (!referenced.has(key)) problems.push(`object without a record: ${key}`);
    }
    const temp = await fs.readdir(store.tempDir).catch(() => []);
    for (const name of temp) problems.push(`temporary file left: ${name}`);
    return problems;
  }
  const entries = await fs.readdir(store.root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(store.root, full);
    // The trash (photos kept for the history and Recently deleted) and the site's own files
    // are named by other records (docs/behaviour.md §18, §21, §22).
    if (relative === ".trash" || relative.startsWith(`.trash${path.sep}`)) continue;
    if (relative === "site" || relative.startsWith(`site${path.sep}`)) continue;
    if (entry.isFile()) {
      if (relative.startsWith(".tmp")) problems.push(`temporary file left: ${relative}`);
      else if (relative.includes(".removing-")) problems.push(`staged file left: ${relative}`);
      else if (!referenced.has(full)) problems.push(`file without a record: ${relative}`);
    } else if (relative.split(path.sep).length === 2 && !folders.has(full)) {
      problems.push(`folder without a listing: ${relative}`);
    }
  }
  return problems;
}

function urlOf(key: string) {
  const [collection, folder, name] = key.split("/") as [string, string, string];
  return `/images/${collection}/${encodeURIComponent(folder)}/${name}`;
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
