// Test helper: fetch with a cookie jar and manual redirects, enough to drive a sign-in like a
// browser does (cookie paths respected, expired cookies dropped). Used only by *.test.ts.

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export class CookieJar {
  private cookies: StoredCookie[] = [];

  /** Keeps the cookies a response sets. */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((p) => p.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = "/";
      let expired = value === "";
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = val;
        if (key.toLowerCase() === "max-age" && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) expired = true;
      }
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired) this.cookies.push({ name, value, path });
    }
  }

  /** The Cookie header a browser would send to this URL. */
  header(url: string | URL): string {
    const { pathname } = new URL(url);
    return this.cookies
      .filter(
        (c) =>
          pathname === c.path || pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  get(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }
}

/** One request, no redirect following, cookies sent and stored. */
export async function request(
  jar: CookieJar,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set("cookie", cookie);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

/** The absolute target of a redirect response (fails the test when it is not one). */
export function redirectTarget(response: Response, base: string | URL): URL {
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || !location) {
    throw new Error(`Expected a redirect, got ${response.status}`);
  }
  return new URL(location, base);
}

/** Follows redirects while they stay outside `stopAt` (a path prefix); returns the stop URL. */
export async function followUntil(
  jar: CookieJar,
  start: URL,
  stopAt: string,
  maxHops = 10,
): Promise<{ url: URL; response: Response }> {
  let url = start;
  for (let hop = 0; hop < maxHops; hop++) {
    const response = await request(jar, url);
    if (response.status < 300 || response.status >= 400) return { url, response };
    url = redirectTarget(response, url);
    if (url.pathname.startsWith(stopAt)) return { url, response };
  }
  throw new Error("Too many redirects");
}
