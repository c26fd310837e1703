// The list pages' filter bar, its code loaded when it is first used
// (docs/decisions/0077-csv-guards-and-light-public-pages.md). The server renders the whole bar.
// Hydrating, the browser keeps that markup without the bar's code, as on-demand-form.tsx does:
// focusing or pointing at it fetches the code; the first change (or Enter) puts the real bar in
// its place with the same values and focus, and applies the change as the bar would have. A new
// search arriving meanwhile (a live change, another tab's search) brings the real bar too.
import {
  type FormEvent,
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import type { ListingKind } from "~/domain/listing-kinds";
import type { ListSearch } from "~/domain/listing-search";
import type { FilterStart } from "./list-filter-bar";

// on-demand-form.tsx's KEEP, useHydratedNow() and useKept(), repeated: importing them would
// bring that module's chunk (the alert form's wrapper), which a list without filters never needs.
const noSubscription = () => () => {};
const KEEP = { __html: "" };
export function useHydratedNow(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The real bar once its code is here: rendered at once, never suspending (see below). */
let LoadedBar: typeof import("./list-search-live").default | undefined;
export const loadSearch = () =>
  import("./list-search-live").then((m) => {
    LoadedBar = m.default;
    return m;
  });
const LiveFilterBar = lazy(loadSearch);

export function FilterBarOnDemand(props: {
  kind: ListingKind;
  search: ListSearch;
  hydrated: boolean;
  onApplied: (query: string) => void;
}) {
  const hydrated = useHydratedNow();
  // The first render while hydrating: the server's bar is there to keep.
  const [kept] = useState(() => typeof document !== "undefined" && !hydrated);
  const [live, setLive] = useState<{ start?: FilterStart; n?: number } | null>(kept ? null : {});
  const shown = useRef(JSON.stringify(props.search));
  /** The server's bar's control that last had the focus, kept after the real bar replaced it. */
  const focused = useRef<HTMLElement | null>(null);
  const changed = JSON.stringify(props.search) !== shown.current;
  useEffect(() => {
    if (changed) void loadSearch().then(() => setLive((now) => now ?? {}));
  }, [changed]);

  if (live) {
    // A takeover comes once the code is here: the loaded bar replaces the server's in the same
    // commit. A lazy one would suspend first, and React holds a fallback for 300 ms, leaving the
    // page with no bar, where keys typed went nowhere (docs/testing.md, "Known races").
    const Bar = LoadedBar ?? LiveFilterBar;
    return (
      <div className="on-demand">
        <Suspense fallback={null}>
          {/* Every new start (a later change, or a new search) starts the bar again from it. */}
          <Bar key={live.n ?? 0} {...props} start={live.start} />
        </Suspense>
      </div>
    );
  }

  /**
   * The real bar takes over once its code is here, from what the server's bar holds then: that
   * form is taken now, as a bar brought in meanwhile by a new search replaces it (the change is
   * still in it, and still applies).
   */
  const takeOver = (form: HTMLFormElement | null | undefined, used: string | null) =>
    void loadSearch().then(({ filterStart, nextLive }) => {
      if (!form) return;
      // The form is read as it is now, so it holds every change made on the server's bar so
      // far (a second change before the real bar showed is in it too); Enter applies everything
      // at once. nextLive() starts the bar again only for values it did not start from, so a
      // change is never lost, nor what was typed into the bar meanwhile.
      const start = filterStart(form, used, () => focused.current);
      setLive((now) => nextLive(now, start));
    });

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: listens to the kept bar's own controls (events bubble); the div itself is no control
    <div
      // With JavaScript every change applies at once: no 'Apply filters' (app.css).
      className={props.hydrated ? "on-demand filters-live" : "on-demand"}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string, never content: it keeps the server's markup
      dangerouslySetInnerHTML={KEEP}
      onFocus={(event) => {
        focused.current = event.target;
        void loadSearch();
      }}
      onPointerDown={() => void loadSearch()}
      onInput={(event) => {
        const control = event.target as HTMLInputElement;
        takeOver(control.form, control.name ?? null);
      }}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        takeOver(event.target as HTMLFormElement, null);
      }}
    />
  );
}
