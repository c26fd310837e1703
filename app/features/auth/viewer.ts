// Who is looking at the page, as the root loader hands it to every screen.
import type { ListingScope } from "~/domain/listing-scope";
import type { Role } from "./permissions";

export interface SessionUser {
  /**
   * The OIDC issuer that vouches for `sub`: users are identified by both (migration 0008).
   * '' for a user from before that migration whose next sign-in has not claimed them yet.
   */
  issuer: string;
  /** The issuer's subject identifier. */
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface Viewer {
  user: SessionUser | null;
  /** Their staff role, or null for anyone who is not staff (permissions.ts). */
  role: Role | null;
  /** The spec's admin (docs/behaviour.md §6): an Owner or a Manager. */
  isAdmin: boolean;
  /**
   * 'Only these listings' of a Leasing agent: the listings whose leads and applications they
   * may read (null: every listing; docs/behaviour.md §6, "Staff roles").
   */
  listings: ListingScope;
  signIn: {
    /** False in production without OIDC settings. */
    available: boolean;
    /** 'Google' by default, or the configured provider's name, or 'Development'. */
    providerName: string;
  };
}
