import type { Listing } from "~/domain/listing";
import { FACT_KEYS, type FactKey } from "~/domain/listing-facts";
import type { PropertyType } from "~/domain/listing-kinds";

/** What the add and edit forms hold: inputs keep text until they are sent (facts too). */
export interface ListingFormValues extends Record<FactKey, string> {
  address: string;
  bedrooms: string;
  bathrooms: string;
  description: string;
  price: string;
  thumbnail_description: string;
  currently_available: boolean;
  property_type: PropertyType;
  reserve_url: string;
}

export const EMPTY_FORM: ListingFormValues = {
  address: "",
  bedrooms: "",
  bathrooms: "",
  description: "",
  price: "",
  thumbnail_description: "",
  currently_available: false,
  property_type: "Residential",
  reserve_url: "",
  ...(Object.fromEntries(FACT_KEYS.map((k) => [k, ""])) as Record<FactKey, string>),
};

export function valuesFromListing(listing: Listing): ListingFormValues {
  return {
    address: listing.address,
    bedrooms: listing.bedrooms == null ? "" : String(listing.bedrooms),
    bathrooms: listing.bathrooms == null ? "" : String(listing.bathrooms),
    description: listing.description,
    price: listing.price ?? "",
    thumbnail_description: listing.thumbnail_description,
    currently_available: listing.currently_available === true,
    property_type: listing.property_type,
    reserve_url: listing.reserve_url ?? "",
    ...(Object.fromEntries(
      FACT_KEYS.map((k) => [k, listing[k] == null ? "" : String(listing[k])]),
    ) as Record<FactKey, string>),
  };
}

/** The JSON the API validates (it re-checks everything). */
export function toPayload(values: ListingFormValues) {
  return {
    ...values,
    bedrooms: values.bedrooms.trim() === "" ? null : Number(values.bedrooms),
    bathrooms: values.bathrooms.trim() === "" ? null : Number(values.bathrooms),
  };
}

/** Restores a draft from session storage, ignoring anything that is not one. */
export function parseDraft(raw: string | null): ListingFormValues | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<ListingFormValues>;
    if (typeof parsed !== "object" || parsed === null) return null;
    const merged = { ...EMPTY_FORM };
    for (const key of Object.keys(EMPTY_FORM) as (keyof ListingFormValues)[]) {
      if (typeof parsed[key] === typeof EMPTY_FORM[key])
        (merged as Record<string, unknown>)[key] = parsed[key];
    }
    return merged;
  } catch {
    return null;
  }
}

export const draftKey = (collection: string) => `draft:${collection}`;
