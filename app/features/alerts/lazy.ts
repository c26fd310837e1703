import { lazy } from "react";

/**
 * The alert form's wrapper, fetched only by a list that has filters: an unfiltered list never
 * fetches it (docs/decisions/0077-csv-guards-and-light-public-pages.md).
 */
export const LazyAlertForm = lazy(() =>
  import("./alert-form-on-demand").then((m) => ({ default: m.AlertFormOnDemand })),
);
