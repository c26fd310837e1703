// Site settings (docs/behaviour.md §18): the stored values over the defaults of
// app/domain/company.ts. getSiteContent is the one way the server reads company content.
import fs from "node:fs/promises";
import { DEFAULT_AUTO_REPLY } from "~/domain/auto-reply";
import {
  type CompanyContent,
  company,
  mergeContent,
  type SiteContent,
  type StoredContent,
} from "~/domain/company";
import { type ImageStore, processLogo } from "~/features/images/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { HttpError } from "~/shared/http-error.server";
import { type FeaturedRef, reorderFeatured } from "./featured.server";
import type { SettingsInput } from "./settings-input.server";

/** What the staff stored (only what differs from the defaults); `{}` on a fresh install. */
export async function readStoredContent(q: Queryable): Promise<StoredContent> {
  const [row] = await q.query<{ content: StoredContent }>(
    "SELECT content FROM site_settings WHERE id",
  );
  return row?.content ?? {};
}

/** The company content every page shows: stored settings over the defaults. */
export async function getSiteContent(q: Queryable): Promise<SiteContent> {
  return mergeContent(company, await readStoredContent(q));
}

/** A file sent with the settings: a temporary upload path, or bytes (CLI import). */
export type SettingsFile = string | Buffer;

export interface SettingsChange {
  fields: SettingsInput;
  /** A new logo, back to the default logo, or (absent) unchanged. */
  logo?: { upload: SettingsFile } | "default";
  /** The company's own PDF, back to the generated form, or (absent) unchanged. */
  application?: { upload: SettingsFile } | "generated";
  /** The featured listings' new order (docs/behaviour.md §19); absent: unchanged. */
  featuredOrder?: FeaturedRef[];
}

const MAX_PDF_BYTES = 25 * 1024 * 1024;

async function bytesOf(file: SettingsFile): Promise<Buffer> {
  return typeof file === "string" ? fs.readFile(file) : file;
}

/** A PDF is taken as it is, after a look at its size and first bytes. */
async function checkedPdf(file: SettingsFile): Promise<Buffer> {
  const size = typeof file === "string" ? (await fs.stat(file)).size : file.length;
  if (size > MAX_PDF_BYTES) throw new HttpError(413, "The PDF is larger than 25 MB.");
  const data = await bytesOf(file);
  if (data.subarray(0, 5).toString("latin1") !== "%PDF-") {
    throw new HttpError(400, "The rental application form must be a PDF file.");
  }
  return data;
}

/** `value` if it differs from `base` (as JSON), else undefined: only changes are stored. */
function differing<T>(value: T, base: T): T | undefined {
  return JSON.stringify(value) === JSON.stringify(base) ? undefined : value;
}

/** The stored form of edited fields (files apart): each part only when it is not the default. */
function storedFields(fields: SettingsInput, defaults: CompanyContent): StoredContent {
  const about = {
    aboutUs: differing(fields.aboutUs, defaults.about.aboutUs),
    founder: differing(fields.founder, defaults.about.founder),
    services: differing(fields.services, defaults.about.services),
  };
  // Absent (a file exported before these existed): the defaults.
  const { fee, screeningCriteria } = defaults.application;
  const application = {
    fee: differing(fields.applicationFee ?? fee, fee),
    screeningCriteria: differing(fields.screeningCriteria ?? screeningCriteria, screeningCriteria),
  };
  // The default wording is stored as "" (a later version's default then applies to it).
  const reply = fields.autoReply ?? defaults.autoReply;
  const autoReply = {
    enabled: reply.enabled,
    text: reply.text === DEFAULT_AUTO_REPLY ? "" : reply.text,
  };
  const stored: StoredContent = {
    name: differing(fields.name, defaults.name),
    tagline: differing(fields.tagline, defaults.tagline),
    errorContactName: differing(fields.errorContactName, defaults.errorContactName),
    contacts: differing(fields.contacts, defaults.contacts),
    office: differing(fields.office ?? defaults.office, defaults.office),
    brandColors: differing(fields.brandColors ?? defaults.brandColors, defaults.brandColors),
    about: Object.values(about).some((v) => v !== undefined) ? about : undefined,
    application: Object.values(application).some((v) => v !== undefined) ? application : undefined,
    autoReply: differing(autoReply, defaults.autoReply),
  };
  return JSON.parse(JSON.stringify(stored)) as StoredContent;
}

/**
 * Saves the settings page (or an import) as one change: files are checked and stored first,
 * then the row is written in one transaction; if that fails the new files go and nothing
 * changed. Files replaced by the change are deleted once it is committed.
 */
export async function saveSettings(
  db: Db,
  images: ImageStore,
  change: SettingsChange,
  updatedBy: string | null,
): Promise<SiteContent> {
  const created: string[] = [];
  try {
    let logo: StoredContent["logo"] | "default" | undefined;
    if (change.logo === "default") logo = "default";
    else if (change.logo) {
      // A file that is no image is refused (ImageRejectedError is an HttpError, status 400).
      const processed = await processLogo(change.logo.upload);
      const src = await images.saveSiteFile("logo", processed.data);
      created.push(src);
      // Sized like the default logo (the navbar shows it 80 px wide, the hero at twice the
      // width): the file's pixels (at most 640 wide) serve screens of 2× density and more.
      const width = company.logo.width;
      logo = {
        src,
        width,
        height: Math.max(1, Math.round((width * processed.height) / processed.width)),
      };
    }
    let applicationPdf: string | null | undefined;
    if (change.application === "generated") applicationPdf = null;
    else if (change.application) {
      applicationPdf = await images.saveSiteFile(
        "application",
        await checkedPdf(change.application.upload),
      );
      created.push(applicationPdf);
    }

    const replaced: string[] = [];
    const content = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO site_settings (id) VALUES (true) ON CONFLICT (id) DO NOTHING");
      const [row] = await tx.query<{ content: StoredContent }>(
        "SELECT content FROM site_settings WHERE id FOR UPDATE",
      );
      const before = row?.content ?? {};
      const next: StoredContent = storedFields(change.fields, company);
      // Files stay as they were unless the change says otherwise.
      const keptLogo = logo === undefined ? before.logo : logo === "default" ? undefined : logo;
      if (keptLogo) next.logo = { ...keptLogo, alt: change.fields.name };
      const keptPdf = applicationPdf === undefined ? before.applicationPdf : applicationPdf;
      if (keptPdf) next.applicationPdf = keptPdf;
      // Of `application` the page edits only the fee and the screening criteria.
      const {
        fee: _fee,
        screeningCriteria: _criteria,
        ...otherApplication
      } = before.application ?? {};
      const application = { ...otherApplication, ...next.application };
      if (Object.keys(application).length > 0) next.application = application;
      // Anything else stored (fields this page does not edit) is kept.
      for (const [key, value] of Object.entries(before)) {
        if (!(key in next) && !EDITED_KEYS.has(key)) (next as Record<string, unknown>)[key] = value;
      }
      for (const old of [before.logo?.src, before.applicationPdf]) {
        if (old && images.isSiteFile(old) && old !== next.logo?.src && old !== next.applicationPdf)
          replaced.push(old);
      }
      await tx.query(
        "UPDATE site_settings SET content = $1::jsonb, updated_at = $2, updated_by = $3 WHERE id",
        [JSON.stringify(next), new Date().toISOString(), updatedBy],
      );
      if (change.featuredOrder) await reorderFeatured(tx, change.featuredOrder);
      return mergeContent(company, next);
    });
    logEvent("settings saved", updatedBy);
    for (const url of replaced) await images.remove(url).catch(() => undefined);
    return content;
  } catch (error) {
    for (const url of created) await images.remove(url).catch(() => undefined);
    throw error;
  }
}

/** The stored keys the settings page owns (a key absent from a save goes back to its default). */
const EDITED_KEYS = new Set([
  "name",
  "tagline",
  "errorContactName",
  "contacts",
  "office",
  "brandColors",
  "about",
  "application",
  "logo",
  "applicationPdf",
  "autoReply",
]);
