import { rentOf } from "./listing-facts";

/**
 * The detail page's link for an available Vacation property without a reservation URL
 * (messages.ts's addedMessages.contactToReserve). Here, with the detail page's other formatting,
 * so that public pages do not load the whole message catalogue, nor a file, for it
 * (docs/decisions/0077-csv-guards-and-light-public-pages.md).
 */
export const CONTACT_TO_RESERVE = "Contact us to reserve";

/** '{n} Bedrooms | {n} Bathrooms', each part only when its value is truthy. */
export function bedBathLine(bedrooms: unknown, bathrooms: unknown): string {
  const parts: string[] = [];
  if (bedrooms) parts.push(`${bedrooms} Bedrooms`);
  if (bathrooms) parts.push(`${bathrooms} Bathrooms`);
  return parts.join(" | ");
}

/** Description bullets: split at line breaks or at runs of two or more dots; blanks dropped. */
export function descriptionBullets(description: string | null | undefined): string[] {
  if (!description) return [];
  return description
    .split(/\r\n|\r|\n|\.{2,}/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * Whole US dollars exactly as `Intl.NumberFormat("en-US", { style: "currency", currency: "USD",
 * maximumFractionDigits: 0 })` writes a non-negative number, without Intl: creating that
 * formatter loads ICU's currency data, which was the largest single cost of hydrating a list
 * of cards on a phone (docs/decisions/0055-prices-formatted-without-intl.md).
 */
export function wholeDollars(value: number): string {
  if (!Number.isFinite(value)) return "$∞";
  // Math.round is Intl's default "halfExpand" for the non-negative numbers prices are.
  let digits = String(Math.round(value));
  // From 1e21 up, JavaScript writes the shortest digits with an exponent; Intl writes them out.
  const exponent = /^(\d)(?:\.(\d+))?e\+(\d+)$/.exec(digits);
  if (exponent) {
    const significant = `${exponent[1]}${exponent[2] ?? ""}`;
    digits = significant + "0".repeat(Number(exponent[3]) - (significant.length - 1));
  }
  return `$${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

/** Digits with an optional decimal point are shown as whole US dollars; other text as is. */
export function formatPrice(price: string | null | undefined): string {
  if (price == null) return "";
  const text = String(price);
  const rent = rentOf(text);
  return rent === null ? text : wholeDollars(rent);
}
