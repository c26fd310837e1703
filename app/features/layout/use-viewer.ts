import { useRouteLoaderData } from "react-router";
import type { Viewer } from "~/features/auth";

const NOBODY: Viewer = {
  user: null,
  role: null,
  isAdmin: false,
  listings: null,
  signIn: { available: false, providerName: "Google" },
};

/** The signed-in user (if any) as the root loader saw it. */
/** Admins only: how many leads are 'New' (the user menu's 'Inbox (3)'); null for others. */
export function useInboxCount(): number | null {
  const data = useRouteLoaderData("root") as { inboxNew?: number } | undefined;
  return typeof data?.inboxNew === "number" ? data.inboxNew : null;
}

export function useViewer(): Viewer {
  const data = useRouteLoaderData("root") as { viewer?: Viewer } | undefined;
  return data?.viewer ?? NOBODY;
}
