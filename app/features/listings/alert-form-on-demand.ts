// 'Notify me…' and 'E-mail me new matches' on the public pages, their code loaded only when used
// (app/shared/on-demand-form.tsx; docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { onDemandForm } from "~/shared/on-demand-form";
import type { AlertAnswer, AlertFormProps } from "./alert-form";

export const AlertFormOnDemand = onDemandForm<AlertFormProps, AlertAnswer>(() =>
  import("./alert-form").then((m) => ({ default: m.AlertForm })),
);
