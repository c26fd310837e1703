import { buildSitemap, type SitemapListing } from "~/features/listings/sitemap";
import type { Route } from "./+types/sitemap-xml";

// Generated from the data on every request, so it is always current.
export async function loader({ context }: Route.LoaderArgs) {
  const listings = await context.db.query<SitemapListing>(
    "SELECT collection, id, address, image_urls, updated_at FROM listings ORDER BY collection DESC, id",
  );
  return new Response(buildSitemap(context.env.publicUrl, listings), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
