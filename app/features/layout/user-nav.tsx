import { useEffect, useId, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { Permission, Viewer } from "~/features/auth";
import { announceAuth, can } from "~/features/auth";
import { useInboxCount } from "./use-viewer";

const SIGN_IN_URL = "/auth/login";

/**
 * Signed out: 'Login with {provider}' opens the sign-in popup; useAuthBroadcast updates the page
 * when it reports back. With popups blocked the link signs in in this window instead.
 */
export function SignInLink({
  providerName,
  onChosen,
}: {
  providerName: string;
  onChosen?: () => void;
}) {
  function open(event: React.MouseEvent<HTMLAnchorElement>) {
    const popup = window.open(SIGN_IN_URL, "sign-in", "popup,width=480,height=640");
    if (!popup) return;
    event.preventDefault();
    onChosen?.();
  }
  return (
    <a className="nav-link" href={SIGN_IN_URL} onClick={open}>
      Login with {providerName}
    </a>
  );
}

/** The admin menu, in the spec's order; each entry shown to the roles its permission names. */
const ADMIN_MENU: { to: string; label: string; permission: Permission }[] = [
  { to: "/admin/staff", label: "Staff", permission: "staff" },
  { to: "/admin/leasing-agents", label: "Leasing agents", permission: "agents" },
  { to: "/admin/site", label: "Site settings", permission: "site:write" },
  { to: "/admin/deleted", label: "Recently deleted", permission: "listings:write" },
  { to: "/admin/listings", label: "All listings", permission: "listings:read" },
  { to: "/admin/feeds", label: "Listing feeds", permission: "feeds:read" },
  { to: "/admin/inbox", label: "Inbox", permission: "leads" },
  { to: "/admin/showings", label: "Showings", permission: "leads" },
  { to: "/admin/applications", label: "Applications", permission: "applications" },
  { to: "/admin/outbox", label: "Outbox", permission: "outbox" },
  { to: "/admin/status", label: "Status", permission: "status" },
  { to: "/admin/activity", label: "Activity", permission: "activity" },
];

/** Signed in: a dropdown titled with the display name (or 'User'). */
export function UserMenu({ viewer, onChosen }: { viewer: Viewer; onChosen?: () => void }) {
  const { revalidate } = useRevalidator();
  const inboxNew = useInboxCount();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (
        e instanceof KeyboardEvent ? e.key === "Escape" : !ref.current?.contains(e.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  async function logout() {
    setOpen(false);
    onChosen?.();
    await fetch("/auth/logout", { method: "POST" });
    announceAuth({ type: "auth:signed-out" });
    await revalidate();
  }

  const menuLink = (to: string, label: string) => (
    <li>
      <Link
        className="dropdown-item"
        to={to}
        onClick={() => {
          setOpen(false);
          onChosen?.();
        }}
      >
        {label}
      </Link>
    </li>
  );

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className="nav-link nav-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        {viewer.user?.name || "User"}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open ? (
        <ul className="dropdown-menu" id={menuId}>
          {viewer.role ? (
            <>
              <li className="dropdown-header">Admin</li>
              {ADMIN_MENU.filter((entry) => can(viewer, entry.permission)).map((entry) =>
                menuLink(
                  entry.to,
                  entry.to === "/admin/inbox" && inboxNew ? `Inbox (${inboxNew})` : entry.label,
                ),
              )}
            </>
          ) : null}
          {viewer.role ? menuLink("/account", "Your account") : null}
          <li>
            <button type="button" className="dropdown-item" onClick={logout}>
              Logout
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
