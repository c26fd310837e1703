-- Users are identified by their issuer AND its subject identifier (issue 18): a `sub` is unique
-- only within one issuer, so after a change of OIDC_ISSUER another person could carry an old
-- user's sub. docs/decisions/0048-users-keyed-by-issuer-and-sub.md.
--
-- Rows from before this migration do not know their issuer (a migration cannot read the
-- configuration): they get the placeholder '' (no real issuer is empty: issuers are URLs). The
-- next sign-in of that sub from the configured issuer claims them (users.server.ts), with their
-- sessions (ON UPDATE CASCADE) and the admin grants bound to that sub (admins.server.ts).
ALTER TABLE users ADD COLUMN issuer text NOT NULL DEFAULT '' CHECK (length(issuer) <= 2048);
ALTER TABLE users ALTER COLUMN issuer DROP DEFAULT;
ALTER TABLE sessions ADD COLUMN user_issuer text NOT NULL DEFAULT '';
ALTER TABLE sessions ALTER COLUMN user_issuer DROP DEFAULT;
ALTER TABLE sessions DROP CONSTRAINT sessions_user_sub_fkey;
ALTER TABLE users DROP CONSTRAINT users_pkey;
ALTER TABLE users ADD PRIMARY KEY (issuer, sub);
ALTER TABLE sessions ADD CONSTRAINT sessions_user_fkey FOREIGN KEY (user_issuer, user_sub)
  REFERENCES users (issuer, sub) ON DELETE CASCADE ON UPDATE CASCADE;
DROP INDEX sessions_user_sub;
CREATE INDEX sessions_user ON sessions (user_issuer, user_sub);

-- A grant's uid is a sub of the issuer in uid_issuer ('' when unknown, see above; meaningless
-- while uid is null). A grant inserted by hand with only a uid (the spec's admins/{uid}) gets ''
-- and is claimed by the next sign-in of that sub, like the users above.
ALTER TABLE admins ADD COLUMN uid_issuer text NOT NULL DEFAULT '';
DROP INDEX admins_uid;
CREATE INDEX admins_uid ON admins (uid_issuer, uid);
DROP INDEX admins_uid_only;
CREATE UNIQUE INDEX admins_uid_only ON admins (uid_issuer, uid) WHERE email IS NULL;
