import { Link } from "react-router";
import { useCompany } from "~/features/site-settings";

/** Every page's footer: how to reach the office, and the fair-housing statement. */
export function SiteFooter() {
  const company = useCompany();
  const { office } = company;
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <div>
            <p className="footer-name">{company.name}</p>
            <p>{company.tagline}</p>
          </div>
          <div>
            <p>
              Phone: <a href={`tel:${office.phone}`}>{office.phone}</a>
            </p>
            <p>
              E-mail: <a href={`mailto:${office.email}`}>{office.email}</a>
            </p>
            {office.address ? <address>{office.address}</address> : null}
          </div>
        </div>
        <div className="footer-legal">
          <span>
            © {new Date().getFullYear()} {company.name}
          </span>
          <Link to="/privacy">Privacy</Link>
          <Link to="/sign-in">Staff sign-in</Link>
          <span className="eho">Equal Housing Opportunity</span>
        </div>
      </div>
    </footer>
  );
}
