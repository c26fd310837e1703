import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import type { Collection } from "~/domain/listing-kinds";

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
      timer = setTimeout(() => void revalidate.current(), 50);
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
