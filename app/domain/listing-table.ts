// The staff table of every listing at /admin/listings (docs/behaviour.md §25): its columns, sort
// orders and query parameters, read by the page, the SQL query and the canonical-URL rules.

export const TABLE_PAGE_SIZE = 50;
const MAX_SEARCH = 200;
/** A bound on `page` so an absurd number is no query: 10,000 pages of 50 is far beyond any site. */
const MAX_PAGE = 10_000;

export const TABLE_SORTS = [
  "address",
  "kind",
  "type",
  "status",
  "rent",
  "photos",
  "changed",
] as const;
export type TableSort = (typeof TABLE_SORTS)[number];
export type SortDirection = "asc" | "desc";

/** The column headers, in order, with the sort each one offers. */
export const TABLE_COLUMNS: readonly { sort: TableSort; label: string }[] = [
  { sort: "address", label: "Address" },
  { sort: "kind", label: "Kind" },
  { sort: "type", label: "Type" },
  { sort: "status", label: "Status" },
  { sort: "rent", label: "Rent" },
  { sort: "photos", label: "Photos" },
  { sort: "changed", label: "Last change" },
];

export interface TableQuery {
  q: string;
  /** Only the 'Stale' ones: available properties not confirmed lately (docs/behaviour.md §30). */
  stale: boolean;
  sort: TableSort;
  dir: SortDirection;
  page: number;
}

/** Without parameters: the most recently changed first. */
export const DEFAULT_TABLE_QUERY: TableQuery = {
  q: "",
  stale: false,
  sort: "changed",
  dir: "desc",
  page: 1,
};

/** Each parameter's one accepted spelling, or null (server/page-queries.ts drops it). */
export const tableParam = {
  q: (v: string) => (v.trim() && v.length <= MAX_SEARCH ? v : null),
  stale: (v: string) => (v === "1" ? v : null),
  sort: (v: string) => ((TABLE_SORTS as readonly string[]).includes(v) ? v : null),
  dir: (v: string) => (v === "asc" || v === "desc" ? v : null),
  page: (v: string) => (/^[1-9]\d{0,4}$/.test(v) && Number(v) <= MAX_PAGE ? v : null),
} as const;

export function parseTableQuery(params: URLSearchParams): TableQuery {
  const q = tableParam.q(params.get("q") ?? "");
  const sort = tableParam.sort(params.get("sort") ?? "") as TableSort | null;
  const dir = tableParam.dir(params.get("dir") ?? "") as SortDirection | null;
  const page = tableParam.page(params.get("page") ?? "");
  return {
    q: q?.trim() ?? "",
    stale: tableParam.stale(params.get("stale") ?? "") !== null,
    sort: sort ?? DEFAULT_TABLE_QUERY.sort,
    // A column chosen without a direction sorts ascending, as its header link first asks.
    dir: dir ?? (sort ? "asc" : DEFAULT_TABLE_QUERY.dir),
    page: page ? Number(page) : 1,
  };
}

/** The table's URL for a query; defaults are left out so each state has one URL. */
export function tableHref(query: TableQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.stale) params.set("stale", "1");
  const sortIsDefault =
    query.sort === DEFAULT_TABLE_QUERY.sort && query.dir === DEFAULT_TABLE_QUERY.dir;
  if (!sortIsDefault) {
    params.set("sort", query.sort);
    params.set("dir", query.dir);
  }
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return `/admin/listings${search ? `?${search}` : ""}`;
}

/** A header's link: its column ascending, or the other way when it is the current order. */
export function sortHref(query: TableQuery, sort: TableSort): string {
  const dir: SortDirection = query.sort === sort && query.dir === "asc" ? "desc" : "asc";
  return tableHref({ ...query, sort, dir, page: 1 });
}

/** The words searched for: every one must occur in the address, city, ZIP or description. */
export function searchWords(q: string): string[] {
  return q.split(/\s+/).filter(Boolean).slice(0, 10);
}
