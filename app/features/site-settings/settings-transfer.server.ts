// `npm run admin -- settings export <file>` / `settings import <file>` (docs/behaviour.md §23):
// the site settings as one JSON document, files included, so a company can script its setup and
// keep it in version control.
import { z } from "zod";
import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import { editableOf } from "./editable";
import { type FeaturedRef, featuredEntries, replaceFeatured } from "./featured.server";
import { getSiteContent, readStoredContent, saveSettings } from "./settings.server";
import { parseFeaturedOrder, parseSettings } from "./settings-input.server";

export const SETTINGS_FORMAT = "leasing-site-settings/1";

const file = z.object({ data: z.string().max(40_000_000) }).nullable();
const documentSchema = z.object({
  format: z.literal(SETTINGS_FORMAT, { error: `format must be "${SETTINGS_FORMAT}"` }),
  settings: z.unknown(),
  /** null: the default logo. */
  logo: file,
  /** null: the generated application form. */
  applicationPdf: file,
  /** null: the default featured addresses; else the featured listings in order. */
  featured: z.unknown(),
});

export async function exportSettings(db: Db, images: ImageStore) {
  const content = await getSiteContent(db);
  const stored = await readStoredContent(db);
  const bytes = async (url: string | null | undefined) => {
    if (!url || !images.isSiteFile(url)) return null;
    const data = await images.read(url);
    return data ? { data: data.toString("base64") } : null;
  };
  return {
    format: SETTINGS_FORMAT,
    settings: editableOf(content),
    logo: await bytes(stored.logo?.src),
    applicationPdf: await bytes(stored.applicationPdf),
    featured: Array.isArray(stored.featured)
      ? (await featuredEntries(db)).map(({ collection, id }) => ({ collection, id }))
      : null,
  };
}

/** Applies a document as one save (files checked and re-encoded like uploads); 400 if invalid. */
export async function importSettings(db: Db, images: ImageStore, raw: unknown, by: string) {
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(
      400,
      `The settings file is not valid: ${issue?.path.join(".") || "document"} ${issue?.message ?? ""}`.trim(),
    );
  }
  const doc = parsed.data;
  const fields = parseSettings(doc.settings);
  const featured: FeaturedRef[] | null =
    doc.featured === null ? null : (parseFeaturedOrder(doc.featured) ?? null);
  const decode = (f: { data: string }) => Buffer.from(f.data, "base64");
  await saveSettings(
    db,
    images,
    {
      fields,
      logo: doc.logo ? { upload: decode(doc.logo) } : "default",
      application: doc.applicationPdf ? { upload: decode(doc.applicationPdf) } : "generated",
    },
    by,
  );
  await db.transaction((tx) => replaceFeatured(tx, featured));
}
