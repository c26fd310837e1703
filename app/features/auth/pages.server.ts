// The few HTML pages of sign-in: popup results, "unavailable" and the development login form.
// Standalone documents (no React): they run inside the sign-in popup.
import { randomBytes } from "node:crypto";
import type { Response } from "express";
import { refuseByDesign } from "~/shared/refusal-by-design.server";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1f2937}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #6b7280;border-radius:4px}
button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}
.note{background:#fef3c7;border:1px solid #d97706;padding:.5rem .8rem;border-radius:4px}
.error{color:#b91c1c;font-weight:600}`;

/** Sends a page with a strict CSP: only this page's own inline style and script run. */
export function sendPage(
  res: Response,
  status: number,
  page: { title: string; body: string; script?: string },
) {
  const nonce = randomBytes(16).toString("base64");
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${page.body}
${page.script ? `<script nonce="${nonce}">${page.script}</script>` : ""}
</body>
</html>`);
}

export type PopupOutcome = "auth:signed-in" | "auth:failed";

/**
 * The last page of the popup: tells the opening window and closes. The BroadcastChannel copy
 * reaches the site's tabs even when the provider's pages cut the popup off from its opener
 * (Cross-Origin-Opener-Policy).
 */
export function sendPopupResult(res: Response, outcome: PopupOutcome) {
  const ok = outcome === "auth:signed-in";
  sendPage(res, 200, {
    title: ok ? "Signed in" : "Sign-in failed",
    body: `<main><h1>${ok ? "You are signed in." : "Sign-in did not work."}</h1>
<p><a href="/">Continue to the site</a></p></main>`,
    script: `const message = { type: ${JSON.stringify(outcome)} };
window.opener?.postMessage(message, location.origin);
try { const channel = new BroadcastChannel("auth"); channel.postMessage(message); channel.close(); } catch {}
window.close();`,
  });
}

/**
 * 503 while sign-in is not configured: a refusal by design, explained once in the log at start
 * (createAuthRouter), so its access line is not an error.
 */
export function sendSignInUnavailable(res: Response) {
  refuseByDesign(res);
  sendPage(res, 503, {
    title: "Sign-in unavailable",
    body: `<main><h1>Sign-in is not available.</h1>
<p>This site has not been set up for signing in yet.</p><p><a href="/">Back to the site</a></p></main>`,
  });
}

export interface DevLoginForm {
  action: string;
  email?: string;
  name?: string;
  error?: string;
}

/** The development identity provider's own login page: no password, clearly not for production. */
export function sendDevLoginPage(res: Response, status: number, form: DevLoginForm) {
  sendPage(res, status, {
    title: "Development sign-in",
    body: `<main>
<h1>Development sign-in</h1>
<p class="note">This is the built-in development identity provider. It is not for production:
anyone can sign in as any email address, which is treated as verified. Configure OIDC settings
to use a real provider.</p>
${form.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>` : ""}
<form method="post" action="${escapeHtml(form.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="email" maxlength="254" value="${escapeHtml(form.email ?? "")}">
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="200" value="${escapeHtml(form.name ?? "")}">
<button type="submit">Sign in</button>
</form>
</main>`,
  });
}
