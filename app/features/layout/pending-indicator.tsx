import { useNavigation } from "react-router";
import { KINDS } from "~/domain/listing-kinds";

/** The loading texts of docs/behaviour.md §2, keyed by where a navigation is going. */
export function pendingText(pathname: string): string | null {
  if (pathname === KINDS.properties.route) return KINDS.properties.loadingText;
  if (
    /^\/(properties|new-construction)\/[^/]+$/.test(pathname) ||
    pathname === "/new-construction"
  ) {
    return "Loading...";
  }
  return null;
}

/** Shown while the next page's data is on its way (server-rendered pages arrive with data). */
export function PendingIndicator() {
  const navigation = useNavigation();
  const text =
    navigation.state === "loading" && navigation.location
      ? pendingText(navigation.location.pathname)
      : null;
  return (
    <div aria-live="polite" role="status">
      {text ? <div className="pending">{text}</div> : null}
    </div>
  );
}
