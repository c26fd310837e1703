import { companyFrom } from "~/features/site-settings";

type Matches = Parameters<typeof companyFrom>[0];

/**
 * Title and description tags for a page; every public page has its own. The company name comes
 * from the root loader's data in `matches` (the stored settings).
 */
export function pageMeta(title: string, description: string, matches: Matches, canonical?: string) {
  return [
    { title: `${title} | ${companyFrom(matches).name}` },
    { name: "description", content: description },
    ...(canonical ? [{ tagName: "link", rel: "canonical", href: canonical }] : []),
  ];
}

/** The site's public origin, as the root loader tells every page. */
export function originFrom(
  matches: readonly ({ id: string; data?: unknown } | undefined)[],
): string {
  const root = matches.find((m) => m?.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "";
}
