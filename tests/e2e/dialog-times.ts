// When each message dialog appeared and closed, recorded by the page itself. Measured from the
// test's side, a dialog's time on screen is short by however late Playwright noticed it (over
// 400 ms with two test workers on two cores), so the spec's durations are read from the page.
import type { BrowserContext, ElementHandle } from "@playwright/test";

declare global {
  interface Window {
    __dialogTimes?: WeakMap<Element, { shownAt: number; closedAt?: number }>;
  }
}

/** Every page of the context records its dialogs' times (before any script of the site runs). */
export async function recordDialogTimes(context: BrowserContext) {
  await context.addInitScript(() => {
    const times = new WeakMap<Element, { shownAt: number; closedAt?: number }>();
    window.__dialogTimes = times;
    const note = (node: Node) => {
      if (!(node instanceof Element)) return;
      const dialogs = node.matches("dialog") ? [node] : [...node.querySelectorAll("dialog")];
      for (const dialog of dialogs) {
        if (!times.has(dialog)) times.set(dialog, { shownAt: performance.now() });
      }
    };
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) note(node);
    }).observe(document, { childList: true, subtree: true });
    // "close" does not bubble; a capturing listener on the document still hears it.
    document.addEventListener(
      "close",
      (event) => {
        const dialog = event.target as HTMLDialogElement;
        const entry = times.get(dialog);
        // Re-opening a dialog as a modal (close, then showModal) queues a "close" that arrives
        // while it is open again (message-dialog.tsx): only a close that leaves it shut counts.
        if (entry && entry.closedAt === undefined && !dialog.open) {
          entry.closedAt = performance.now();
        }
      },
      true,
    );
  });
}

/** How long the dialog was open, by the page's clock, once it has closed. */
export async function dialogOpenMs(dialog: ElementHandle<Element>) {
  return dialog.evaluate((el) => {
    const entry = window.__dialogTimes?.get(el);
    if (!entry || entry.closedAt === undefined) {
      throw new Error("this dialog's times were not recorded (recordDialogTimes)");
    }
    return entry.closedAt - entry.shownAt;
  });
}
