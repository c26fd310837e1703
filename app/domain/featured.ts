import type { ListingSummary } from "./listing";

/** Home list: only records whose address is exactly one of the featured addresses, in that order. */
export function selectFeatured<T extends Pick<ListingSummary, "address">>(
  items: readonly T[],
  featuredAddresses: readonly string[],
): T[] {
  const rank = new Map(featuredAddresses.map((address, i) => [address, i]));
  return items
    .filter((item) => rank.has(item.address))
    .sort((a, b) => (rank.get(a.address) ?? 0) - (rank.get(b.address) ?? 0));
}

/** Card animation delay in seconds: 0.5 s plus 0.2 s per card. */
export function cardDelaySeconds(index: number): number {
  return Math.round((0.5 + 0.2 * index) * 10) / 10;
}
