import { Link, useNavigate, useSearchParams } from "react-router";
import { APPLY_ONLINE, APPLY_PATH } from "~/domain/apply-online";
import { pageMeta } from "~/features/layout";
import { useCompany } from "~/features/site-settings";
import { useHydrated } from "~/shared/use-hydrated";
import type { Route } from "./+types/rental-application";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    "Rental Application",
    "How to apply: download the rental application, fill it in and submit it.",
    matches,
  );

export default function RentalApplication() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  // The address is shown by the browser only: the server renders and keeps one page for every
  // address (docs/decisions/0050-canonical-urls-and-render-limit.md), and the button it labels
  // goes back in history, which needs the page's script anyway.
  const hydrated = useHydrated();
  const address = hydrated ? searchParams.get("address") : null;
  const company = useCompany();
  const [download, fill, submit] = company.application.steps;
  return (
    <section className="prose">
      <h1>How to Apply</h1>
      <ol className="steps">
        <li>
          {download}{" "}
          <a className="btn btn-primary" href={`/${company.application.fileName}`} download>
            Download the application (PDF)
          </a>
        </li>
        <li>{fill}</li>
        <li>{submit}</li>
      </ol>
      {/* Beside the spec's path (docs/behaviour.md §32): the same address goes along. */}
      <p>
        <Link
          className="btn btn-primary"
          to={address ? `${APPLY_PATH}?${new URLSearchParams({ address })}` : APPLY_PATH}
        >
          {APPLY_ONLINE}
        </Link>
      </p>
      {address ? (
        <button type="button" className="btn btn-outline" onClick={() => navigate(-1)}>
          Return to {address}
        </button>
      ) : null}
    </section>
  );
}
