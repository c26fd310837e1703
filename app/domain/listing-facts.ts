// The listing facts renters search by (docs/behaviour.md §3): declared once here, and read by the
// database columns (db/migrations/0009), the input check, the add and edit forms, the detail page's
// 'Details' list, the history and the CSV. All optional: the spec's "no required-field checks"
// stays true, and listings without them keep working.
import type { Collection } from "./listing-kinds";

export const PET_POLICIES = ["none", "cats", "dogs", "cats-and-dogs"] as const;
export type PetPolicy = (typeof PET_POLICIES)[number];
export const PET_LABELS: Record<PetPolicy, string> = {
  none: "No pets",
  cats: "Cats allowed",
  dogs: "Dogs allowed",
  "cats-and-dogs": "Cats and dogs allowed",
};

/**
 * A listing's 'Showings' (docs/behaviour.md §33): stored empty for 'Open hours', the default.
 */
export const SHOWINGS_MODES = ["request", "none"] as const;
export type ShowingsMode = (typeof SHOWINGS_MODES)[number];
export const SHOWINGS_LABELS = {
  open: "Open hours",
  request: "By request only",
  none: "No showings",
} as const;

/** The stored type of each kind of input. */
interface FactInputTypes {
  integer: number;
  text: string;
  /** A two-letter US state or territory code, upper case ('VA'). */
  state: string;
  /** Five digits, or ZIP+4 ('22201' or '22201-1234'). */
  zip: string;
  pets: PetPolicy;
  /** YYYY-MM-DD. */
  date: string;
  showings: ShowingsMode;
}

/**
 * In the order the forms and the 'Details' list show them. The only declaration of the facts:
 * their keys, labels, inputs and (through the input) their types.
 */
export const FACT_FIELDS = [
  { key: "square_feet", label: "Square feet", input: "integer", propertiesOnly: false },
  { key: "city", label: "City", input: "text", propertiesOnly: false },
  { key: "state", label: "State", input: "state", propertiesOnly: false },
  { key: "zip", label: "ZIP code", input: "zip", propertiesOnly: false },
  { key: "pets", label: "Pets", input: "pets", propertiesOnly: true },
  { key: "available_from", label: "Available from", input: "date", propertiesOnly: true },
  // How renters see it (not a fact the 'Details' list shows).
  { key: "showings", label: "Showings", input: "showings", propertiesOnly: false },
] as const satisfies readonly {
  key: string;
  label: string;
  input: keyof FactInputTypes;
  /** Only properties have it (a construction's value is always null). */
  propertiesOnly: boolean;
}[];

export type FactField = (typeof FACT_FIELDS)[number];
export type FactKey = FactField["key"];
/** Every fact with its stored type; null when not given. */
export type ListingFacts = { [F in FactField as F["key"]]: FactInputTypes[F["input"]] | null };

export const FACT_KEYS: readonly FactKey[] = FACT_FIELDS.map((f) => f.key);

export const NO_FACTS = Object.fromEntries(FACT_KEYS.map((k) => [k, null])) as ListingFacts;

export function factFieldsOf(collection: Collection): readonly FactField[] {
  return collection === "properties"
    ? FACT_FIELDS
    : FACT_FIELDS.filter((f: FactField) => !f.propertiesOnly);
}

/** US states, DC and the territories, by their postal code. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
  PR: "Puerto Rico",
  GU: "Guam",
  VI: "U.S. Virgin Islands",
  AS: "American Samoa",
  MP: "Northern Mariana Islands",
};

/** A state as typed ('va', 'Virginia', ' VA ') → its code, or null when it is none. */
export function stateCode(text: string): string | null {
  const t = text.trim();
  if (/^[A-Za-z]{2}$/.test(t) && Object.hasOwn(US_STATES, t.toUpperCase())) return t.toUpperCase();
  const lower = t.toLowerCase();
  for (const [code, name] of Object.entries(US_STATES)) {
    if (name.toLowerCase() === lower) return code;
  }
  return null;
}

export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is none). */
export function isIsoDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/**
 * The monthly rent used to filter and sort: the spec's price when it is purely digits with an
 * optional decimal point (the rule formatPrice() shows as dollars), else none. The database
 * computes the same in its `rent` column (db/migrations/0009).
 */
export function rentOf(price: string | null | undefined): number | null {
  return price != null && /^\d+(\.\d*)?$/.test(price) ? Number(price) : null;
}

/** '1,250 sq ft' style figures without Intl (docs/decisions/0055). */
export function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The months' names, January first. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** A date YYYY-MM-DD as 'March 1, 2027' (UTC, no Intl). */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  return `${MONTHS[m - 1] ?? ""} ${d}, ${y}`;
}

/** The 'Details' list of a detail page: label and text of each fact the listing has. */
export function factLines(
  collection: Collection,
  facts: Partial<ListingFacts>,
): { label: string; value: string }[] {
  const lines: { label: string; value: string }[] = [];
  for (const field of factFieldsOf(collection)) {
    const value = facts[field.key];
    if (value === null || value === undefined || value === "" || field.key === "showings") continue;
    const text =
      field.key === "square_feet"
        ? `${groupDigits(Number(value))} sq ft`
        : field.key === "pets"
          ? (PET_LABELS[value as PetPolicy] ?? String(value))
          : field.key === "state"
            ? `${US_STATES[String(value)] ?? value}`
            : field.key === "available_from"
              ? longDate(String(value))
              : String(value);
    lines.push({ label: field.label, value: text });
  }
  return lines;
}
