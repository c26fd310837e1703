import { buildSitemapIndex, sitemapFileCount } from "~/features/listings";
import { countListings } from "~/features/listings/index.server";
import type { Route } from "./+types/sitemap-xml";

// The index of the sitemap's files (app/features/listings/sitemap.ts), from the data on every
// request, so it is always current.
export async function loader({ context }: Route.LoaderArgs) {
  const count = await countListings(context.db);
  return new Response(buildSitemapIndex(context.env.publicUrl, sitemapFileCount(count)), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
