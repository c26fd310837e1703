// The dialog for pages that rarely show one (a missing listing): its code loads on demand.
import { lazy } from "react";

export const LazyMessageDialog = lazy(() =>
  import("./message-dialog").then((m) => ({ default: m.MessageDialog })),
);
