// Minimal cookie reading and writing for the two cookies of sign-in (session and login flow).

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieOptions {
  /** 0 deletes the cookie. */
  maxAgeSeconds: number;
  /** Secure is required for __Host- names and on https sites. */
  secure: boolean;
}

/** HttpOnly, SameSite=Lax (sent on the provider's redirect back to us), Path=/ (__Host- needs it). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
