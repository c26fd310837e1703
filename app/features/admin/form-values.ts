import type { Listing } from "~/domain/listing";
import type { CheckedListing } from "~/domain/listing-check";
import { FIELD_KEYS, type FieldKey } from "~/domain/listing-fields";
import type { PropertyType } from "~/domain/listing-kinds";

/**
 * What the add and edit forms hold, one value per field of app/domain/listing-fields.ts:
 * inputs keep text until they are sent; the availability is a checkbox, the type a choice.
 */
export type ListingFormValues = {
  [K in FieldKey]: K extends "currently_available"
    ? boolean
    : K extends "property_type"
      ? PropertyType
      : string;
};

function formValue(key: FieldKey, value: unknown): string | boolean {
  if (key === "currently_available") return value === true;
  if (key === "property_type") return typeof value === "string" ? value : "Residential";
  return value === null || value === undefined ? "" : String(value);
}

function formValues(read: (key: FieldKey) => unknown): ListingFormValues {
  return Object.fromEntries(
    FIELD_KEYS.map((k) => [k, formValue(k, read(k))]),
  ) as unknown as ListingFormValues;
}

export const EMPTY_FORM: ListingFormValues = formValues(() => undefined);

export function valuesFromListing(listing: Listing): ListingFormValues {
  return formValues((k) => listing[k]);
}

/** The JSON the API validates (it re-checks everything). */
export function toPayload(values: ListingFormValues) {
  return {
    ...values,
    bedrooms: values.bedrooms.trim() === "" ? null : Number(values.bedrooms),
    bathrooms: values.bathrooms.trim() === "" ? null : Number(values.bathrooms),
  };
}

/** What the 'Listing check' reads of the form (app/domain/listing-check.ts). */
export function checkedFromForm(
  values: ListingFormValues,
  captions: readonly string[],
): CheckedListing {
  const { bedrooms, bathrooms } = toPayload(values);
  return {
    ...values,
    bedrooms: Number.isFinite(bedrooms) ? bedrooms : null,
    bathrooms: Number.isFinite(bathrooms) ? bathrooms : null,
    captions,
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
