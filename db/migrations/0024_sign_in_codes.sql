-- Sign-in without an identity provider (docs/behaviour.md §6, "Staff sign-in"): a 6-digit code
-- e-mailed to a staff address, or a single-use link the admin CLI prints. Only a hash of each
-- secret is kept; rows are short-lived and deleted a day after they end.
CREATE TABLE sign_in_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('code', 'link')),
  email text NOT NULL CHECK (email = lower(btrim(email))),
  -- SHA-256 of the secret (a link's token, or the code with its row's salt).
  secret_hash text NOT NULL,
  salt text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  wrong_tries int NOT NULL DEFAULT 0,
  used_at timestamptz
);
CREATE INDEX sign_in_codes_email ON sign_in_codes (email, created_at);
CREATE UNIQUE INDEX sign_in_codes_link ON sign_in_codes (secret_hash) WHERE kind = 'link';
