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

/** URLs in one sitemap file (the protocol allows 50,000; smaller files stay quick). */
export const SITEMAP_FILE_URLS = 10_000;

/** Which listings (by position in the sitemap's order) the n-th file (from 1) holds. */
export function sitemapFileRange(n: number): { offset: number; limit: number; pages: boolean } {
  const pages = n === 1;
  const offset = pages ? 0 : (n - 1) * SITEMAP_FILE_URLS - STATIC_PATHS.length;
  return {
    offset,
    limit: pages ? SITEMAP_FILE_URLS - STATIC_PATHS.length : SITEMAP_FILE_URLS,
    pages,
  };
}

/** How many files the sitemap needs for this many listings (always at least one). */
export function sitemapFileCount(listings: number): number {
  return Math.max(1, Math.ceil((listings + STATIC_PATHS.length) / SITEMAP_FILE_URLS));
}

/** /sitemap.xml: the index of the sitemap's files (/sitemaps/1.xml, ...). */
export function buildSitemapIndex(origin: string, files: number): string {
  const entries = Array.from(
    { length: files },
    (_, i) =>
      `<sitemap><loc>${xml(new URL(`/sitemaps/${i + 1}.xml`, `${origin}/`).toString())}</loc></sitemap>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/**
 * One sitemap file: the public pages (first file only) and listings, each listing with its
 * photos.
 */
export function buildSitemap(
  origin: string,
  listings: readonly SitemapListing[],
  withPages = true,
): string {
  const url = (path: string) => xml(new URL(path, `${origin}/`).toString());
  const entries = [
    ...(withPages ? STATIC_PATHS : []).map((p) => `<url><loc>${url(p)}</loc></url>`),
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
