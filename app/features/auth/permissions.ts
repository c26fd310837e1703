// Who may do what (docs/behaviour.md §6, "Staff roles"; docs/architecture.md, "Who may do what"):
// the one permission table. The server's guard (staff-guard.server.ts) decides every page,
// action, API call, download and live stream by it; the menus show only what it allows.
import type { Viewer } from "./viewer";

/** The staff roles, most to least trusted. */
export const ROLES = ["owner", "manager", "leasing-agent", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** Each role's name as staff see it. */
export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  manager: "Manager",
  "leasing-agent": "Leasing agent",
  viewer: "Viewer",
};

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as readonly string[]).includes(value);

const ALL_STAFF = ROLES;
const ADMINS = ["owner", "manager"] as const;
const WITH_RENTERS = ["owner", "manager", "leasing-agent"] as const;
const OWNER = ["owner"] as const;

/** Each capability of the admin area and the roles that have it. */
export const PERMISSIONS = {
  /** 'All listings' and a listing's history, read only. */
  "listings:read": ALL_STAFF,
  /** Add, edit, delete, photos, featured, CSV import and export, 'Recently deleted', restore. */
  "listings:write": ADMINS,
  /** The spec's 'Toggle Availability' and 'Still available'. */
  "listings:availability": WITH_RENTERS,
  /** 'Erase for good': a deleted listing or a photo, with every copy. */
  "listings:erase": OWNER,
  /** The site settings and featured listings. */
  "site:write": ADMINS,
  /** 'Listing feeds': who fetched them, read only. */
  "feeds:read": ["owner", "manager", "viewer"],
  /** The leads inbox: read, status, notes, answers, export. */
  leads: WITH_RENTERS,
  /** 'Erase this person' in the inbox. */
  "people:erase": ADMINS,
  /** Applications: read, status, notes, documents, 'Download PDF'. */
  applications: WITH_RENTERS,
  /** The outbox of outgoing e-mail. */
  outbox: ADMINS,
  /** 'Staff': who is staff, in which role. */
  staff: OWNER,
  /** 'Leasing agents': limit an agent to 'Only these listings'. */
  agents: ADMINS,
  /** 'Status': the scheduler's jobs, the outbox's counts, the database, storage and version. */
  status: OWNER,
  /** 'Activity': who did what and when. */
  activity: OWNER,
  /** 'Your account': their sign-in, 'Sign out everywhere'. */
  account: ALL_STAFF,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether the viewer may do what `permission` stands for. */
export function can(viewer: Pick<Viewer, "role"> | null | undefined, permission: Permission) {
  const role = viewer?.role ?? null;
  return role !== null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The spec's "admin" (docs/behaviour.md §6): an Owner or a Manager. */
export const isAdminRole = (role: Role | null) => role === "owner" || role === "manager";
