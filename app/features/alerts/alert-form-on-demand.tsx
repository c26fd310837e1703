// 'Notify me…' and 'E-mail me new matches' on the public pages, their code loaded only when used
// (app/shared/on-demand-form.tsx; docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { lazy } from "react";
import { OnDemandForm } from "~/shared/on-demand-form";
import type { AlertAnswer, AlertFormProps } from "./alert-form";

const load = () => import("./alert-form").then((m) => ({ default: m.AlertForm }));
const Form = lazy(load);

export function AlertFormOnDemand(props: AlertFormProps) {
  return <OnDemandForm<AlertFormProps, AlertAnswer> Form={Form} load={load} props={props} />;
}
