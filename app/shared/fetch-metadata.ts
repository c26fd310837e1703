// Fetch Metadata (docs/behaviour.md §16): a browser that sends no Origin still says, in
// Sec-Fetch-Site, whether another site's page made the request. Another site (or a sibling
// subdomain, as an Origin from one is refused too) is refused like a foreign Origin.
export function crossSiteFetch(secFetchSite: string | string[] | undefined): boolean {
  const values = (Array.isArray(secFetchSite) ? secFetchSite.join(",") : (secFetchSite ?? ""))
    .toLowerCase()
    .split(",")
    .map((v) => v.trim());
  return values.some((v) => v === "cross-site" || v === "same-site");
}
