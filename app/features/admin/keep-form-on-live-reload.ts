import type { ShouldRevalidateFunctionArgs } from "react-router";
import { isLiveReload } from "~/features/live";

/**
 * The edit pages' `shouldRevalidate`: a live reload (a lead arrived, the server listens again)
 * does not run their loader again. The form holds the staff member's unsaved work and checks
 * its version when saved (docs/behaviour.md §7), and after 'Delete' its listing is gone: the
 * loader's 404 would replace the page, and the open 'Deleted!' dialog, with 'Page not found'.
 * Navigations and the form's own reloads run it as usual.
 */
export function keepFormOnLiveReload({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  const sameUrl = currentUrl.href === nextUrl.href;
  if (sameUrl && !formMethod && isLiveReload()) return false;
  return defaultShouldRevalidate;
}
