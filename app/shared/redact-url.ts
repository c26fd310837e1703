// Request URLs as logs may show them: credentials in query strings (docs/behaviour.md §24)
// replaced.
/**
 * Query parameters whose values are credentials (the sign-in callback's code and state, OAuth
 * tokens, anything named like a token, secret, password or key): never written to the log.
 */
const SECRET_PARAM =
  /^(code|state|token|session_state)$|token$|secret|passw|signature|(^|_)(key|sig)$/i;

/**
 * The URL with the values of secret-looking query parameters replaced by `[redacted]`. The work
 * is done only for a URL with a query string (kept pages rarely have one: 0034, Figures).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q === -1 || q === url.length - 1) return url;
  const parts = url.slice(q + 1).split("&");
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const name = part.slice(0, eq);
    if (SECRET_PARAM.test(decodedName(name))) {
      parts[i] = `${name}=[redacted]`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q + 1)}${parts.join("&")}` : url;
}

function decodedName(name: string): string {
  if (!name.includes("%") && !name.includes("+")) return name;
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
