// Who is looking at the page, as the root loader hands it to every screen.

export interface SessionUser {
  /** The issuer's subject identifier: users are identified by it. */
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface Viewer {
  user: SessionUser | null;
  isAdmin: boolean;
  signIn: {
    /** False in production without OIDC settings. */
    available: boolean;
    /** 'Google' by default, or the configured provider's name, or 'Development'. */
    providerName: string;
  };
}
