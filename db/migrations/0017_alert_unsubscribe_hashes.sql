-- Alert unsubscribe links (docs/behaviour.md §31): the database keeps only the SHA-256 of their
-- tokens, as it does for the confirmation links. A token belongs to an address (every link in any
-- e-mail to it deletes all its alerts); each e-mail the alert worker writes has a new token,
-- since the one it was first sent with cannot be rebuilt from its hash. Tokens of an address
-- with no alert left go with its last alert.
CREATE TABLE alert_unsubscribe_tokens (
  token_hash text PRIMARY KEY,
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_unsubscribe_tokens_email ON alert_unsubscribe_tokens (lower(email));

-- Existing tokens keep working: their hashes (hex SHA-256 of the token's text, as the server
-- computes it) replace them.
INSERT INTO alert_unsubscribe_tokens (token_hash, email, created_at)
SELECT encode(sha256(convert_to(unsubscribe_token, 'UTF8')), 'hex'), email, created_at
FROM listing_alerts;
ALTER TABLE listing_alerts DROP COLUMN unsubscribe_token;
