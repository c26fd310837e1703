import { z } from "zod";
import { listingKey } from "~/domain/listing";
import {
  FACT_FIELDS,
  type FactField,
  isIsoDate,
  type ListingFacts,
  NO_FACTS,
  PET_POLICIES,
  SHOWINGS_LABELS,
  stateCode,
  ZIP_PATTERN,
} from "~/domain/listing-facts";
import type { SpecKey } from "~/domain/listing-fields";
import { type Collection, KINDS, PROPERTY_TYPES } from "~/domain/listing-kinds";
import { HttpError } from "~/shared/http-error.server";
import type { ListingInput } from "./queries.server";

const count = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return null;
    const n = typeof v === "number" ? v : Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 1000) {
      ctx.addIssue({ code: "custom", message: "must be a number from 0 to 1000" });
      return z.NEVER;
    }
    return n;
  });

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

// One validator per spec field of app/domain/listing-fields.ts (`satisfies` keeps the two lists
// the same: a field missing here, or one that is not there, does not compile).
const fields = z.object({
  // The address is kept exactly as typed (the key rule depends on every space in it).
  address: text(200).refine((a) => a.trim().length > 0, "is required"),
  bedrooms: count,
  bathrooms: count,
  description: text(10_000).default(""),
  thumbnail_description: text(500).default(""),
  property_type: z
    .enum(PROPERTY_TYPES, { error: "must be Residential, Commercial or Vacation" })
    .default("Residential"),
  currently_available: z.boolean({ error: "must be true or false" }).default(false),
  price: text(100).default(""),
  reserve_url: z
    .string()
    .max(2000)
    .default("")
    .refine((u) => u === "" || /^https?:\/\/[^\s]+$/i.test(u), "must be an http(s) address"),
} satisfies Record<SpecKey, z.ZodType>);

export type ListingFields = Omit<ListingInput, "image_urls">;

/**
 * One fact as sent (a JSON value, or the text of a CSV cell) → its stored value, null when
 * blank, or a message saying what is wrong ("must be ...", after 'The {label}').
 */
export function parseFact(field: FactField, raw: unknown): { value: unknown } | { error: string } {
  if (raw === null || raw === undefined) return { value: null };
  if (typeof raw !== "string" && typeof raw !== "number") return { error: "is not valid" };
  const text = String(raw).trim();
  if (text === "") return { value: null };
  switch (field.input) {
    case "integer": {
      const n = Number(text.replaceAll(",", ""));
      return Number.isInteger(n) && n >= 1 && n <= 10_000_000
        ? { value: n }
        : { error: "must be a whole number from 1 to 10,000,000" };
    }
    case "text":
      return text.length > 100 || /\p{Cc}/u.test(text)
        ? { error: "must be one line of at most 100 characters" }
        : { value: text };
    case "state": {
      const code = stateCode(text);
      return code ? { value: code } : { error: "must be a US state, such as VA or Virginia" };
    }
    case "zip":
      return ZIP_PATTERN.test(text)
        ? { value: text }
        : { error: "must be five digits, such as 22201 (or ZIP+4, 22201-1234)" };
    case "pets":
      return (PET_POLICIES as readonly string[]).includes(text)
        ? { value: text }
        : { error: "must be one of: none, cats, dogs, cats-and-dogs" };
    case "date":
      return isIsoDate(text) ? { value: text } : { error: "must be a date (YYYY-MM-DD)" };
    case "showings": {
      // The stored word or the form's label ('By request only'); 'open' is the default, empty.
      const word = text.toLowerCase();
      const mode = Object.entries(SHOWINGS_LABELS).find(
        ([key, label]) => word === key || word === label.toLowerCase(),
      )?.[0];
      if (mode === "open") return { value: null };
      return mode ? { value: mode } : { error: "must be one of: open, request, none" };
    }
  }
}

/** Every fact of a submitted record; the property-only ones are dropped for constructions. */
export function parseFacts(collection: Collection, raw: Record<string, unknown>): ListingFacts {
  const facts: Record<string, unknown> = { ...NO_FACTS };
  for (const field of FACT_FIELDS) {
    if (field.propertiesOnly && !KINDS[collection].hasOffer) continue;
    const parsed = parseFact(field, raw[field.key]);
    if ("error" in parsed) {
      throw new HttpError(400, `The ${field.label} ${parsed.error}.`, undefined, field.key);
    }
    facts[field.key] = parsed.value;
  }
  return facts as unknown as ListingFacts;
}

/** Validates a submitted record; property-only fields are dropped for constructions. */
export function parseListingFields(collection: Collection, raw: unknown): ListingFields {
  const parsed = fields.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const field = String(key ?? "input").replaceAll("_", " ");
    throw new HttpError(
      400,
      `The ${field} ${issue?.message ?? "is invalid"}.`,
      undefined,
      typeof key === "string" ? key : undefined,
    );
  }
  const f = parsed.data;
  if ([...f.address].some((ch) => (ch.codePointAt(0) ?? 0) < 32 || ch === "\u007f")) {
    throw new HttpError(
      400,
      "The address cannot contain control characters.",
      undefined,
      "address",
    );
  }
  if (listingKey(f.address).replaceAll("-", "") === "") {
    throw new HttpError(400, "The address must contain letters or digits.", undefined, "address");
  }
  const offer = KINDS[collection].hasOffer;
  return {
    ...parseFacts(collection, raw as Record<string, unknown>),
    address: f.address,
    bedrooms: f.bedrooms,
    bathrooms: f.bathrooms,
    description: f.description,
    thumbnail_description: f.thumbnail_description,
    property_type: f.property_type,
    currently_available: offer ? f.currently_available : null,
    price: offer && f.price !== "" ? f.price : null,
    reserve_url: offer && f.property_type === "Vacation" && f.reserve_url ? f.reserve_url : null,
  };
}

/** JSON in a multipart field or a JSON body. */
export function parseJsonField(value: string | undefined): unknown {
  if (value === undefined) throw new HttpError(400, "The listing data is missing.");
  try {
    return JSON.parse(value);
  } catch {
    throw new HttpError(400, "The listing data is not valid JSON.");
  }
}

const MAX_CAPTION = 500;

function checkCaption(caption: unknown): string {
  if (typeof caption !== "string") throw new HttpError(400, "A caption must be text.");
  if (caption.length > MAX_CAPTION) {
    throw new HttpError(400, `A caption must be at most ${MAX_CAPTION} characters.`);
  }
  if ([...caption].some((ch) => (ch.codePointAt(0) ?? 0) < 32 || ch === "\u007f")) {
    throw new HttpError(400, "A caption must be one line of text.");
  }
  return caption.trim();
}

/** The add form's captions, one per uploaded photo in order (docs/behaviour.md §20). */
export function parseUploadCaptions(value: string | undefined, count: number): string[] {
  if (value === undefined) return Array.from({ length: count }, () => "");
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    throw new HttpError(400, "The captions are not valid JSON.");
  }
  if (!Array.isArray(raw) || raw.length !== count) {
    throw new HttpError(400, "Send one caption (or an empty one) for each photo.");
  }
  return raw.map(checkCaption);
}

/** The edit form's captions by photo URL; only photos of the saved list may have one. */
export function parseCaptionMap(raw: unknown, urls: string[]): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new HttpError(400, "The captions must be an object of photo URL to caption.");
  }
  const out: Record<string, string> = {};
  for (const [url, caption] of Object.entries(raw)) {
    if (!urls.includes(url)) {
      throw new HttpError(400, "A caption names a photo that is not part of this listing.");
    }
    const text = checkCaption(caption);
    if (text !== "") out[url] = text;
  }
  return out;
}
