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

const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** Digits with an optional decimal point are shown as whole US dollars; other text as is. */
export function formatPrice(price: string | null | undefined): string {
  if (price == null) return "";
  const text = String(price);
  return /^\d+(\.\d*)?$/.test(text) ? dollars.format(Number(text)) : text;
}
