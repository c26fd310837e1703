import { company } from "~/domain/company";

/** Title and description tags for a page; every public page has its own. */
export function pageMeta(title: string, description: string, canonical?: string) {
  return [
    { title: `${title} | ${company.name}` },
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
