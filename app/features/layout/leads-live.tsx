// For admins only, loaded on demand: keeps the user menu's 'Inbox (3)' and the inbox itself
// live as leads arrive or change (docs/behaviour.md §27).
import { useLiveRevalidation } from "~/features/live";

export default function LeadsLive() {
  useLiveRevalidation([], { leads: true });
  return null;
}
