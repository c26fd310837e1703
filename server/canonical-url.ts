// One URL per page (docs/decisions/0050-canonical-urls-and-render-limit.md). The routes' fixed
// segments are matched whatever their case, a trailing slash is dropped, and only the query
// parameters the page declares (server/page-queries.ts) with values it accepts are kept. A page
// URL in any other form is redirected (308) to the canonical one; route data (`.data`) is
// answered for the canonical URL. Parameter segments (listing ids) are kept exactly as sent.
import { PAGE_QUERIES } from "./page-queries";

/** What the page pipeline needs of React Router's route table (ServerBuild["routes"]). */
export type RouteTable = Readonly<
  Record<string, { path?: string; parentId?: string; index?: boolean } | undefined>
>;

export interface PageTarget {
  /** The path and query rendered, and the page kept under. */
  key: string;
  /** The canonical URL, when the browser asked for the page in another form. */
  redirect?: string;
  /** false: rendered with a parameter whose pages are never kept (server/page-queries.ts). */
  kept?: false;
}

export type PageTargets = (url: URL) => PageTarget;

interface Pattern {
  /** Lowercased literal segments, or null for a `:param` segment. */
  segments: (string | null)[];
  literals: number;
  /** The route's id and its ancestors', root first (React Router's `_routes` names them). */
  chain: string[];
  id: string;
}

const DATA_SUFFIX = ".data";
/** React Router's route discovery takes parameters of its own and is never rewritten. */
const ROUTER_PATHS = new Set(["/__manifest"]);

export function createPageTargets(routes: RouteTable): PageTargets {
  const patterns: Pattern[] = [];
  for (const [id, route] of Object.entries(routes)) {
    if (!route || (!route.index && !route.path) || route.path?.includes("*")) continue;
    const chain: string[] = [];
    const paths: string[] = [];
    for (let at: string | undefined = id; at; at = routes[at]?.parentId) {
      chain.unshift(at);
      const path = routes[at]?.path;
      if (path) paths.unshift(path);
    }
    const segments = paths
      .join("/")
      .split("/")
      .filter(Boolean)
      .map((s) => (s.startsWith(":") ? null : s.toLowerCase()));
    patterns.push({ segments, literals: segments.filter((s) => s !== null).length, chain, id });
  }
  // The most literal segments first: a fixed path wins over a parameter.
  patterns.sort((a, b) => b.literals - a.literals);

  return (url) => {
    const asSent = url.pathname + url.search;
    if (ROUTER_PATHS.has(url.pathname)) return { key: asSent };
    const data = url.pathname.endsWith(DATA_SUFFIX);
    let path = data ? url.pathname.slice(0, -DATA_SUFFIX.length) : url.pathname;
    if (data && path === "/_root") path = "/";
    const trimmed = path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
    const sent = trimmed === "/" ? [] : trimmed.split("/").slice(1);
    const pattern = patterns.find(
      (p) =>
        p.segments.length === sent.length &&
        p.segments.every((s, i) => s === null || s === sent[i]?.toLowerCase()),
    );
    // No page here: the not-found page, the same for any query.
    if (!pattern) return { key: url.pathname };

    const canonical = `/${sent.map((s, i) => pattern.segments[i] ?? s).join("/")}`;
    const { page, browser, unkept } = keptQuery(url.search, pattern, data);
    const dataPath = canonical === "/" ? `/_root${DATA_SUFFIX}` : canonical + DATA_SUFFIX;
    const key = (data ? dataPath : canonical) + joinQuery(page);
    const kept = unkept ? { kept: false as const } : {};
    if (data) return { key, ...kept };
    const wanted = canonical + joinQuery(mergeInOrder(page, browser, pattern));
    return wanted === asSent ? { key, ...kept } : { key, redirect: wanted, ...kept };
  };
}

type Pieces = [name: string, piece: string][];

/** The query's kept pieces (`name=value` as sent when unchanged), split by who reads them. */
function keptQuery(search: string, pattern: Pattern, data: boolean) {
  const declared = (Object.hasOwn(PAGE_QUERIES, pattern.id) && PAGE_QUERIES[pattern.id]) || {};
  const found = new Map<string, string>();
  for (const piece of search.slice(1).split("&")) {
    if (!piece) continue;
    const at = piece.indexOf("=");
    const name = decode(at < 0 ? piece : piece.slice(0, at));
    const value = decode(at < 0 ? "" : piece.slice(at + 1));
    if (name === null || value === null || found.has(name)) continue;
    if (name === "_routes" && data) {
      const routes = routesParam(value, pattern.chain);
      if (routes !== null) found.set(name, `_routes=${encodeURIComponent(routes)}`);
      continue;
    }
    // Own properties only: a parameter named `constructor` or `__proto__` is no declared one.
    const param = Object.hasOwn(declared, name) ? declared[name] : undefined;
    const normalised = param?.normalise(value) ?? null;
    if (normalised === null) continue;
    found.set(
      name,
      normalised === value
        ? piece
        : `${encodeURIComponent(name)}=${encodeURIComponent(normalised)}`,
    );
  }
  const page: Pieces = [];
  const browser: Pieces = [];
  let unkept = false;
  for (const [name, param] of Object.entries(declared)) {
    const piece = found.get(name);
    if (piece === undefined) continue;
    (param.readBy === "page" ? page : browser).push([name, piece]);
    if (param.readBy === "page" && param.kept === false) unkept = true;
  }
  const routes = found.get("_routes");
  if (routes !== undefined) page.push(["_routes", routes]);
  return { page, browser, unkept };
}

/**
 * `_routes` (the routes whose data a client navigation wants): only this page's routes, in
 * their order; none left, or all of them, is the same as no parameter.
 */
function routesParam(value: string, chain: string[]): string | null {
  const asked = new Set(value.split(","));
  const kept = chain.filter((id) => asked.has(id));
  return kept.length === 0 || kept.length === chain.length ? null : kept.join(",");
}

function mergeInOrder(page: Pieces, browser: Pieces, pattern: Pattern): Pieces {
  const order = Object.keys(PAGE_QUERIES[pattern.id] ?? {});
  return [...page, ...browser].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
}

function joinQuery(pieces: Pieces): string {
  return pieces.length ? `?${pieces.map(([, piece]) => piece).join("&")}` : "";
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}
