import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/** The sign-in popup's last page and Logout announce themselves on this channel. */
export const AUTH_CHANNEL = "auth";
export type AuthMessage = { type: "auth:signed-in" | "auth:failed" | "auth:signed-out" };

/**
 * Reloads the page's data when this browser signs in or out, in this tab or another. Listens on
 * a BroadcastChannel because Google's pages cut the popup off from its opener (COOP), and to
 * window messages for the popup that still has one.
 */
export function useAuthBroadcast() {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;

  useEffect(() => {
    const handle = (data: unknown) => {
      const type = (data as Partial<AuthMessage> | null)?.type;
      if (type === "auth:signed-in" || type === "auth:signed-out") void revalidateRef.current();
    };
    const channel =
      typeof BroadcastChannel === "function" ? new BroadcastChannel(AUTH_CHANNEL) : null;
    const onChannel = (event: MessageEvent) => handle(event.data);
    // The popup posts to both; without a channel the window message is the only way.
    const onWindowMessage = (event: MessageEvent) => {
      if (!channel && event.origin === window.location.origin) handle(event.data);
    };
    channel?.addEventListener("message", onChannel);
    window.addEventListener("message", onWindowMessage);
    return () => {
      channel?.close();
      window.removeEventListener("message", onWindowMessage);
    };
  }, []);
}

/** Tells the site's other tabs (this one revalidates itself). */
export function announceAuth(message: AuthMessage) {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(AUTH_CHANNEL);
  channel.postMessage(message);
  channel.close();
}
