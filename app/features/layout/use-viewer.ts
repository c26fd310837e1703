import { useRouteLoaderData } from "react-router";
import type { Viewer } from "~/features/auth";

const NOBODY: Viewer = {
  user: null,
  isAdmin: false,
  signIn: { available: false, providerName: "Google" },
};

/** The signed-in user (if any) as the root loader saw it. */
export function useViewer(): Viewer {
  const data = useRouteLoaderData("root") as { viewer?: Viewer } | undefined;
  return data?.viewer ?? NOBODY;
}
