// The URL of a request as its target was sent. A target is a path ("/a?b") or, rarely, an
// absolute URL; a path is always read as a path, so "//host/x" stays the path "//host/x" (WHATWG
// `new URL(target, base)` would read it as another host, and throws on "//%F1…").
import { HttpError } from "~/shared/http-error.server";

/** The request's URL on `origin`, or null when the target is no valid URL at all. */
export function targetUrl(target: string, origin: string): URL | null {
  try {
    return target.startsWith("/") ? new URL(origin + target) : new URL(target, origin);
  } catch {
    return null;
  }
}

/** As targetUrl, for code paths that answer through the error handler: 400 for a bad target. */
export function requireTargetUrl(target: string, origin: string): URL {
  const url = targetUrl(target, origin);
  if (!url) throw new HttpError(400, "The address of the request is not a valid URL.");
  return url;
}
