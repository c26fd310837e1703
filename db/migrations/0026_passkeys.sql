-- Passkeys (docs/behaviour.md §6, "Staff sign-in"): WebAuthn credentials a staff member added on
-- 'Your account', each signing them in as the user who added it. Only public keys are stored.
CREATE TABLE staff_passkeys (
  -- The credential's id, base64url, as the authenticator gave it.
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 1400),
  user_issuer text NOT NULL,
  user_sub text NOT NULL,
  -- The WebAuthn user handle (base64url): one per user, the same on each of their passkeys.
  user_handle text NOT NULL,
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  FOREIGN KEY (user_issuer, user_sub) REFERENCES users (issuer, sub)
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX staff_passkeys_user ON staff_passkeys (user_issuer, user_sub);

-- The challenge of a passkey ceremony under way: taken once, within 5 minutes. 'add' belongs to
-- the signed-in user who asked; 'sign-in' to nobody yet.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('add', 'sign-in')),
  user_issuer text,
  user_sub text,
  -- The handle the browser is given for 'add', kept with the passkey once it is added.
  user_handle text,
  expires_at timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);
