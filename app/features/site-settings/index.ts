// The site-settings feature's public surface for the pages (docs/decisions/0032-layers-and-feature-surfaces.md):
// the company content as the root loader read it (stored settings over the defaults).
import { useRouteLoaderData } from "react-router";
import { company, type LayoutContent, layoutContent, mergeContent } from "~/domain/company";

export { type EditableSettings, editableOf } from "./editable";

const DEFAULTS: LayoutContent = layoutContent(mergeContent(company, null));

type Matches = readonly ({ id: string; data?: unknown } | undefined)[];

/** The company content this page was rendered with (the root loader's `company`). */
export function useCompany(): LayoutContent {
  const data = useRouteLoaderData("root") as { company?: LayoutContent } | undefined;
  return data?.company ?? DEFAULTS;
}

/** The same for meta functions, which get the route matches instead of hooks. */
export function companyFrom(matches: Matches | undefined): LayoutContent {
  const root = matches?.find((m) => m?.id === "root")?.data as
    | { company?: LayoutContent }
    | undefined;
  return root?.company ?? DEFAULTS;
}
