-- Sign-in, sessions and the admin registry (spec sections 4 and 6).
-- Times are written by the application (its clock), so PGlite and PostgreSQL behave alike.

-- People who signed in, identified by their identity provider's subject identifier.
-- email/name are copied from the provider at every sign-in; email_verified is the provider's word.
CREATE TABLE users (
  sub text PRIMARY KEY CHECK (sub <> '' AND length(sub) <= 255),
  email text CHECK (length(email) <= 254),
  email_verified boolean NOT NULL DEFAULT false,
  name text CHECK (length(name) <= 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_email_lower ON users (lower(email));

-- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is stored,
-- so a leaked database copy cannot be replayed as cookies.
-- A session ends at expires_at (absolute) or when idle too long (last_seen_at, checked in code).
CREATE TABLE sessions (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
  user_sub text NOT NULL REFERENCES users (sub) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_sub ON sessions (user_sub);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- A sign-in in progress (popup opened, provider not yet answered): the values the callback must
-- see again. Keyed by the SHA-256 of a short-lived cookie token, used once, then deleted.
CREATE TABLE login_flows (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_flows_expires_at ON login_flows (expires_at);

-- The spec's admins/{uid}: only the existence of a grant matters. A grant names a user by
--   uid   the user's sub (the spec's key), and/or
--   email a lowercase address: it makes admin whoever signs in with that address VERIFIED,
--         also before their first sign-in; at sign-in the grant is bound to their uid.
-- A user is admin when a grant has their uid, or their verified email. No foreign key on uid:
-- like admins/{uid}, a grant may name a user who has not signed in yet.
-- The code refuses to remove the last grant (LastAdminError), so the site never loses its admins.
CREATE TABLE admins (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid text CHECK (uid <> ''),
  email text UNIQUE CHECK (email = lower(btrim(email)) AND email LIKE '_%@_%'),
  granted_at timestamptz NOT NULL DEFAULT now(),
  granted_by text,
  CHECK (uid IS NOT NULL OR email IS NOT NULL)
);
CREATE INDEX admins_uid ON admins (uid);
-- At most one uid-only grant per user (email grants bound to the same uid may coexist).
CREATE UNIQUE INDEX admins_uid_only ON admins (uid) WHERE email IS NULL;
