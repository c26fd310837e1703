import { buildSitemap, sitemapFileRange } from "~/features/listings";
import { sitemapListings } from "~/features/listings/index.server";
import type { Route } from "./+types/sitemap-file";

// /sitemaps/{n}.xml: one file of the sitemap (at most 10,000 URLs), listings in a stable order.
export async function loader({ context, params }: Route.LoaderArgs) {
  const match = /^([1-9]\d{0,4})\.xml$/.exec(params.file);
  if (!match) throw new Response("Not Found", { status: 404 });
  const { offset, limit, pages } = sitemapFileRange(Number(match[1]));
  const listings = await sitemapListings(context.db, { offset, limit });
  if (listings.length === 0 && !pages) throw new Response("Not Found", { status: 404 });
  return new Response(buildSitemap(context.env.publicUrl, listings, pages), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
