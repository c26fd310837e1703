import { useEffect, useState } from "react";

/**
 * An alert link's token from the address bar, for its page's form (docs/behaviour.md §31). Read
 * after hydration: the server renders the page without it (one page for every link); without
 * JavaScript the form posts to the page's own URL, which carries it.
 */
export function useLinkToken() {
  const [token, setToken] = useState("");
  useEffect(() => setToken(new URLSearchParams(window.location.search).get("token") ?? ""), []);
  return token;
}
