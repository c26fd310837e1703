// A public form whose code the browser loads only when it is used (docs/decisions/0077-csv-guards-and-light-public-pages.md).
// The server renders the whole form (its render waits for lazy parts). Hydrating, the browser
// keeps that markup as it is without the form's code: it is a plain form, and posting it works
// as without JavaScript. Its first submit is sent in place by React Router (as the form's own
// fetcher would), the form's code is loaded meanwhile, and the answer is shown by the real form.
// Rendered by the browser after hydration (a client navigation), the form is simply loaded.
import {
  type ComponentType,
  type FormEvent,
  type MouseEvent,
  Suspense,
  useState,
  useSyncExternalStore,
} from "react";
import { useFetcher, useNavigate } from "react-router";

const noSubscription = () => () => {};
/** Kept markup: React compares the same empty string and leaves the server's HTML inside. */
export const KEEP = { __html: "" };

/** use-hydrated.ts's test, here: one chunk less on the pages that use this. */
export function useHydratedNow(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** Whether this is the first render while hydrating: the server's markup is there to keep. */
export function useKept(): boolean {
  const hydrated = useHydratedNow();
  const [kept] = useState(() => typeof document !== "undefined" && !hydrated);
  return kept;
}

/**
 * Renders `Form` (a React.lazy of `load`) with `props`, keeping the server's markup until it is
 * used. Callers make `Form` once, at module level.
 */
export function OnDemandForm<P extends { answer?: A | null }, A>({
  Form,
  load,
  props,
}: {
  Form: ComponentType<P>;
  load: () => Promise<unknown>;
  props: P;
}) {
  const kept = useKept();
  const fetcher = useFetcher<A>();
  const navigate = useNavigate();
  const answer = fetcher.data;

  if (!kept || answer !== undefined) {
    return (
      <div key="live" className="on-demand">
        <Suspense fallback={null}>
          <Form {...props} answer={answer ?? props.answer} />
        </Suspense>
      </div>
    );
  }

  function submit(event: FormEvent<HTMLDivElement>) {
    const form = event.target as HTMLFormElement;
    if (form.tagName !== "FORM") return;
    event.preventDefault();
    if (fetcher.state !== "idle") return;
    // How long the page was open, as the form's own onSubmit records it (spam-guard.tsx).
    const elapsed = form.elements.namedItem("elapsed") as HTMLInputElement | null;
    if (elapsed) elapsed.value = String(Math.round(performance.now()));
    const submitter = (event.nativeEvent as SubmitEvent).submitter ?? null;
    void load(); // the answer is shown by the form's code
    fetcher.submit(new FormData(form, submitter), {
      method: "post",
      action: form.getAttribute("action") ?? undefined,
    });
  }

  // A link inside (e.g. 'How we use your details') navigates as a router link does.
  function click(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as Element).closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (link.origin !== window.location.origin || link.target) return;
    event.preventDefault();
    navigate(link.pathname + link.search + link.hash);
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: listens to the kept form's own controls (events bubble); the div itself is no control
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link's click, which the keyboard also sends
    <div
      key="kept"
      className="on-demand"
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string, never content: it keeps the server's markup
      dangerouslySetInnerHTML={KEEP}
      onSubmit={submit}
      onClick={click}
      // Used: its code is fetched now, so that the answer shows at once.
      onFocus={() => void load()}
    />
  );
}
