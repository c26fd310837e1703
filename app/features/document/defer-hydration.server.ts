// Page bytes first, JavaScript second (docs/decisions/0015-deferred-hydration.md). The page
// React renders on the server is complete and usable on its own, so the ~100 KB of hydration
// code need not compete with the HTML, the stylesheet and the main photo for a phone's
// bandwidth: it is requested once the page has loaded and painted.
//
// React Router's <Scripts> renders `<link rel="modulepreload">` hints and one inline module
// script that imports the route modules and starts hydration. In the document React rendered,
// those become one small inline script that adds the same hints and runs the same module code
// after the window's load event and the next frame. The router's data scripts stay in place.
// Tags are found by their attributes (any order or quoting), and a document without the module
// script is reported, never silently passed through (see app/entry.server.tsx).

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const LINK = /<link\b([^>]*?)\/?>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) {
    attributes.set((m[1] as string).toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

/** `inserted`: the module code the loader adds as an inline script (its hash goes in the CSP). */
export type DeferResult =
  | { html: string; deferred: true; inserted: string }
  | { html: string; deferred: false };

/** Defers hydration in a rendered React Router document; `deferred: false` when it found none. */
export function deferHydration(html: string): DeferResult {
  const modules = [...html.matchAll(SCRIPT)].filter((m) => {
    const attributes = parseAttributes(m[1] as string);
    return attributes.get("type") === "module" && !attributes.has("src");
  });
  if (modules.length !== 1) return { html, deferred: false };
  const [moduleTag, , moduleCode] = modules[0] as unknown as [string, string, string];

  const hrefs: string[] = [];
  const withoutHints = html.replace(LINK, (tag, attributeSource: string) => {
    const attributes = parseAttributes(attributeSource);
    if (attributes.get("rel") !== "modulepreload" || !attributes.get("href")) return tag;
    hrefs.push(attributes.get("href") as string);
    return "";
  });
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  // No nonce: both this script and the module it adds are allowed by their hashes
  // (script-hashes.server.ts), and 'strict-dynamic' trusts the hints and imports they make.
  const loader = `<script>(function(){var d=document,h=${json(hrefs)},c=${json(moduleCode)};function go(){h.forEach(function(u){var l=d.createElement("link");l.rel="modulepreload";l.href=u;d.head.appendChild(l)});var s=d.createElement("script");s.type="module";s.textContent=c;d.body.appendChild(s)}function later(){requestAnimationFrame(function(){setTimeout(go,0)})}if(d.readyState==="complete")later();else addEventListener("load",later,{once:true})})()</script>`;
  return {
    html: withoutHints.replace(moduleTag, () => loader),
    deferred: true,
    inserted: moduleCode,
  };
}
