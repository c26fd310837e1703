import { type Collection, listingPath } from "~/domain/listing-kinds";

export interface SitemapListing {
  collection: Collection;
  id: string;
  address: string;
  image_urls: string[];
  updated_at: string | Date;
}

const STATIC_PATHS = [
  "/",
  "/properties",
  "/new-construction",
  "/about",
  "/contact",
  "/rental-application",
];

const xml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

/** sitemap.xml with every public page and listing, each listing with its photos. */
export function buildSitemap(origin: string, listings: readonly SitemapListing[]): string {
  const url = (path: string) => xml(new URL(path, `${origin}/`).toString());
  const entries = [
    ...STATIC_PATHS.map((p) => `<url><loc>${url(p)}</loc></url>`),
    ...listings.map((l) => {
      const images = l.image_urls
        .map((u) => `<image:image><image:loc>${url(u)}</image:loc></image:image>`)
        .join("");
      const lastmod = new Date(l.updated_at).toISOString().slice(0, 10);
      return `<url><loc>${url(listingPath(l.collection, l.id))}</loc><lastmod>${lastmod}</lastmod>${images}</url>`;
    }),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${entries.join("\n")}\n</urlset>\n`;
}

export function buildRobots(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /addproperty",
    "Disallow: /addnewconstruction",
    "Disallow: /editproperties/",
    "Disallow: /edit-construction/",
    "Disallow: /admin/",
    "Disallow: /auth/",
    "Disallow: /api/",
    "",
    `Sitemap: ${new URL("/sitemap.xml", `${origin}/`).toString()}`,
    "",
  ].join("\n");
}
