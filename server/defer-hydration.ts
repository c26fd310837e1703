// Page bytes first, JavaScript second. The server-rendered HTML is complete and usable on its
// own, so the ~100 KB of hydration code need not compete with the HTML, CSS and the main photo
// for a phone's bandwidth: it is requested once the page has loaded and painted.
//
// React Router writes `<link rel="modulepreload">` hints and one inline module script that
// imports the route modules and starts hydration. This rewrites the finished HTML so that,
// after the window's load event and the next frame, the same hints are added and the same
// module script runs. Everything else (the router context and data scripts) stays as it was.

const MODULE_SCRIPT = /<script type="module" async="">([\s\S]*?)<\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"\/>/g;

/** Returns the HTML with hydration deferred, or unchanged when it is not React Router's page. */
export function deferHydration(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const hrefs = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1] as string);
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  const loader = `<script>(function(){var d=document,h=${json(hrefs)},c=${json(script[1])};function go(){h.forEach(function(u){var l=d.createElement("link");l.rel="modulepreload";l.href=u;d.head.appendChild(l)});var s=d.createElement("script");s.type="module";s.textContent=c;d.body.appendChild(s)}function later(){requestAnimationFrame(function(){setTimeout(go,0)})}if(d.readyState==="complete")later();else addEventListener("load",later,{once:true})})()</script>`;
  return html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, () => loader);
}
