-- Each staff member's private 'Calendar feed' of booked showings (docs/behaviour.md §33), to
-- subscribe to in Google Calendar or Outlook: one per user, only the SHA-256 of its token kept
-- (the address is shown once, when made; 'Reset link' makes a new one and ends the old). Who may
-- read it is decided at each fetch by the user's role as it is then.
CREATE TABLE showing_calendar_feeds (
  user_issuer text NOT NULL,
  user_sub text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_fetched_at timestamptz,
  PRIMARY KEY (user_issuer, user_sub),
  FOREIGN KEY (user_issuer, user_sub) REFERENCES users (issuer, sub)
    ON DELETE CASCADE ON UPDATE CASCADE
);
