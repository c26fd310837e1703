import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import type { Collection } from "~/domain/listing-kinds";

/** How many live reloads are running (see `isLiveReload`). */
let liveReloads = 0;

/**
 * Whether the loaders now being asked to run again are a live reload (a change announced on
 * /live), not a navigation or the page's own reload: a route whose page holds work that its
 * reloaded data would throw away says no to those (`shouldRevalidate`; docs/behaviour.md §7).
 */
export function isLiveReload(): boolean {
  return liveReloads > 0;
}

/**
 * Keeps the current page's loader data live: each change announced on /live for one of
 * `collections` re-runs the loaders. The stream is closed when the page is left.
 */
export function useLiveRevalidation(
  collections: readonly Collection[],
  { leads = false }: { leads?: boolean } = {},
) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const key = `${collections.join(",")}${leads ? "&leads=1" : ""}`;
  useEffect(() => {
    const [names, extra = ""] = key.split("&");
    const source = new EventSource(
      `/live?collections=${encodeURIComponent(names ?? "")}${extra ? `&${extra}` : ""}`,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      // Several writes in a burst (a save touches one row, a seed many) cost one reload.
      clearTimeout(timer);
      timer = setTimeout(() => {
        liveReloads += 1;
        void revalidate.current().finally(() => {
          liveReloads -= 1;
        });
      }, 50);
    };
    // Each change, and `{"op":"resync"}` when the server's database connection came back.
    source.onmessage = reload;
    // Reconnected after the stream broke (a server restart): changes may have been missed.
    let broken = false;
    source.onerror = () => {
      broken = true;
    };
    source.onopen = () => {
      if (broken) reload();
      broken = false;
    };
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [key]);
}
