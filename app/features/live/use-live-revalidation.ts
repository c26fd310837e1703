import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import type { Collection } from "~/domain/listing-kinds";

/**
 * Keeps the current page's loader data live: each change announced on /live for one of
 * `collections` re-runs the loaders. The stream is closed when the page is left.
 */
export function useLiveRevalidation(collections: readonly Collection[]) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const key = collections.join(",");
  useEffect(() => {
    const source = new EventSource(`/live?collections=${encodeURIComponent(key)}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.onmessage = () => {
      // Several writes in a burst (a save touches one row, a seed many) cost one reload.
      clearTimeout(timer);
      timer = setTimeout(() => void revalidate.current(), 50);
    };
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [key]);
}
