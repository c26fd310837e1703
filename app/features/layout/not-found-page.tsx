import { Link } from "react-router";
import { useCompany } from "~/features/site-settings";

export function NotFoundPage() {
  const company = useCompany();
  return (
    <section className="prose">
      <title>{`Page not found | ${company.name}`}</title>
      <h1>Page not found</h1>
      <p>
        We couldn't find the page you were looking for. It may have moved, or the link may be
        mistyped.
      </p>
      <p>
        <Link className="btn btn-primary" to="/properties">
          Browse properties
        </Link>{" "}
        <Link className="btn btn-outline" to="/">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
