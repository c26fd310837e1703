import { buildSitemapIndex, sitemapFileCount } from "~/features/listings";
import type { Route } from "./+types/sitemap-xml";

// The index of the sitemap's files (app/features/listings/sitemap.ts), from the data on every
// request, so it is always current.
export async function loader({ context }: Route.LoaderArgs) {
  const [row] = await context.db.query<{ n: number }>("SELECT count(*)::int AS n FROM listings");
  return new Response(buildSitemapIndex(context.env.publicUrl, sitemapFileCount(row?.n ?? 0)), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
