// Security headers for every response: pages get a strict Content-Security-Policy carrying the
// hashes of their inline scripts; everything else gets a policy that allows nothing to run.

export interface SecurityHeaderOptions {
  /** The hashes of the page's inline scripts ("sha256-…"); without any no script may run. */
  scriptHashes?: readonly string[];
  /** Strict-Transport-Security: only for a production site reached over https. */
  hsts: boolean;
  /** Origins photos may also come from (a CDN in front of the photo bucket). */
  imageOrigins?: readonly string[];
  /** `npm run dev`: Vite injects styles and talks to its hot-reload socket. */
  development?: boolean;
}

/**
 * Inline scripts run only if their hash is listed (docs/decisions/0076); 'strict-dynamic' extends
 * that trust to the modules those
 * scripts load (the hydration code and the on-demand chunks), so no host list is needed and
 * neither 'unsafe-inline' nor 'unsafe-eval' is ever allowed. Style attributes rendered on the
 * server (card animation delays) need 'unsafe-inline' for attributes only; blob: images are the
 * admin forms' previews of picked photos.
 */
export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const images = ["'self'", "data:", "blob:", ...(options.imageOrigins ?? [])].join(" ");
  const hashes = options.scriptHashes ?? [];
  const scripts = hashes.length
    ? `${hashes.map((hash) => `'${hash}'`).join(" ")} 'strict-dynamic'`
    : "'none'";
  const dev = options.development === true;
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    ...(dev ? ["connect-src 'self' ws://localhost:* ws://127.0.0.1:*"] : []),
    "style-src-attr 'unsafe-inline'",
    `img-src ${images}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    ...(options.hsts ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
