import { lazy, Suspense, useId, useState } from "react";
import { NavLink } from "react-router";
import { can, useAuthBroadcast } from "~/features/auth";
import { usePhotoUrl } from "~/features/images";
import { useCompany } from "~/features/site-settings";
import { useViewer } from "./use-viewer";
import { SignInLink, UserMenu } from "./user-nav";

/** Admins only, loaded on demand: the inbox count stays live. */
const LeadsLive = lazy(() => import("./leads-live"));

export interface NavItem {
  to: string;
  label: string;
}

export const PUBLIC_NAV: NavItem[] = [
  { to: "/", label: "Home" },
  { to: "/properties", label: "Properties" },
  { to: "/new-construction", label: "New Construction" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
  { to: "/rental-application", label: "Rental Application" },
];

export const ADMIN_NAV: NavItem[] = [
  { to: "/addproperty", label: "Add Property" },
  { to: "/addnewconstruction", label: "Add New Construction" },
];

/** Sticky bar; below xl the links collapse behind a toggle and close when one is chosen. */
export function Navbar() {
  const viewer = useViewer();
  const company = useCompany();
  const photoUrl = usePhotoUrl();
  useAuthBroadcast();
  // The spec's admin (an Owner or a Manager) adds listings (docs/behaviour.md §6).
  const extraItems = can(viewer, "listings:write") ? ADMIN_NAV : [];
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const close = () => setOpen(false);
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar-inner">
        <NavLink to="/" className="navbar-brand" onClick={close}>
          <img
            src={photoUrl(company.logo.src)}
            alt={company.logo.alt}
            width={80}
            height={Math.round((80 * company.logo.height) / company.logo.width)}
          />
          {/* The logo's alt already names the link; this is the same name, legible. */}
          <span className="navbar-brand-name" aria-hidden="true">
            {company.name}
          </span>
        </NavLink>
        <button
          type="button"
          className="navbar-toggler"
          aria-controls={menuId}
          aria-expanded={open}
          aria-label="Toggle navigation"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div id={menuId} className={open ? "navbar-collapse show" : "navbar-collapse"}>
          <ul className="nav-links">
            {[...PUBLIC_NAV, ...extraItems].map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === "/"}
                  className={({ isActive }) => (isActive ? "nav-link active" : "nav-link")}
                  onClick={close}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="nav-end">
            {can(viewer, "leads") ? (
              <Suspense fallback={null}>
                <LeadsLive />
              </Suspense>
            ) : null}
            {viewer.user ? (
              <UserMenu viewer={viewer} onChosen={close} />
            ) : viewer.signIn.available ? (
              <SignInLink providerName={viewer.signIn.providerName} onChosen={close} />
            ) : null}
          </div>
        </div>
      </div>
    </nav>
  );
}
