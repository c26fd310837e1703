// The page's inline scripts are allowed by their SHA-256 hashes in the Content-Security-Policy
// (docs/decisions/0076-script-hashes-and-private-answers.md): a kept page is answered to every
// visitor as it is, and a nonce shared by all of them would be no secret. A hash allows exactly
// the script the server rendered, and nothing an injection adds.
import { createHash } from "node:crypto";
import { parseAttributes } from "./defer-hydration.server";

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** CSP's hash of a script's text, as the browser reads it (line breaks normalised to LF). */
export function scriptHash(code: string): string {
  const text = code.replace(/\r\n?/g, "\n");
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

/**
 * The hashes of every inline script of `html` (those with `src` are loaded, and trusted through
 * 'strict-dynamic'), and of `inserted`: scripts a page's own script adds later (the deferred
 * hydration's module). Each hash once, in the order first seen.
 */
export function inlineScriptHashes(html: string, inserted: readonly string[] = []): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(SCRIPT)) {
    if (parseAttributes(m[1] as string).has("src")) continue;
    hashes.add(scriptHash(m[2] as string));
  }
  for (const code of inserted) hashes.add(scriptHash(code));
  return [...hashes];
}
