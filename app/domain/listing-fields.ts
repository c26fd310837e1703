// A listing's fields, declared once (docs/behaviour.md §3): the spec's own
// here, the facts renters search by in listing-facts.ts. The record types (Listing, the write
// input, the history's snapshot, the form's values), the labels of the forms and the history,
// the SQL column lists and the CSV's columns are all derived from these two lists.
import { FACT_FIELDS, FACT_KEYS, type FactKey, type ListingFacts } from "./listing-facts";
import type { PropertyType } from "./listing-kinds";

interface FieldSpec<T> {
  /** The field's label in the forms and the history. */
  label: string;
  /** Only properties have it (a construction's value is always null). */
  propertiesOnly: boolean;
  /** Never set: carries the field's stored type into SpecFields. */
  readonly type?: T;
}

const field = <T>(label: string, propertiesOnly = false): FieldSpec<T> => ({
  label,
  propertiesOnly,
});

/** The spec's fields that staff edit, in the order of the CSV. */
export const SPEC_FIELDS = {
  address: field<string>("Address"),
  bedrooms: field<number | null>("Bedrooms"),
  bathrooms: field<number | null>("Bathrooms"),
  description: field<string>("Description"),
  price: field<string | null>("Price", true),
  thumbnail_description: field<string>("Thumbnail Description"),
  property_type: field<PropertyType>("Property Type"),
  currently_available: field<boolean | null>("Availability", true),
  reserve_url: field<string | null>("Reservation URL", true),
} as const;

export type SpecKey = keyof typeof SPEC_FIELDS;
/** The spec's fields with their stored types. */
export type SpecFields = { [K in SpecKey]: Exclude<(typeof SPEC_FIELDS)[K]["type"], undefined> };
/** Every field staff set: the spec's and the facts. */
export type FieldKey = SpecKey | FactKey;

export const SPEC_KEYS = Object.keys(SPEC_FIELDS) as SpecKey[];
/** Every field's column, in the CSV's order: the spec's, then the facts. */
export const FIELD_KEYS: readonly FieldKey[] = [...SPEC_KEYS, ...FACT_KEYS];

/** The label of every field, for the forms and the history's "what changed". */
export const LISTING_FIELD_LABELS = {
  ...(Object.fromEntries(SPEC_KEYS.map((k) => [k, SPEC_FIELDS[k].label])) as Record<
    SpecKey,
    string
  >),
  ...(Object.fromEntries(FACT_FIELDS.map((f) => [f.key, f.label])) as Record<FactKey, string>),
} as const;

/** A record's own fields, each fact possibly absent (records made before the facts). */
export type ListingFieldValues = SpecFields & Partial<ListingFacts>;
