// The per-request nonce that lets the document's own inline scripts run under the
// Content-Security-Policy (docs/decisions/0029-strict-csp-with-a-nonce-per-render.md). Made in app/entry.server.tsx; in the
// browser it is empty (browsers hide nonces from the DOM, and hydration never re-adds scripts).
import { createContext, type ReactNode, useContext } from "react";

const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
