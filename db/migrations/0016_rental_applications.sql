-- Online rental applications (issue 22; docs/behaviour.md §32): a household's application, one
-- row per adult with their own private link, their documents, and every staff view and change.
-- Personal data is sealed (AES-256-GCM under APPLICATION_DATA_KEY, app/features/applications/
-- seal.server.ts): answers and file names are stored only as ciphertext, documents in private
-- storage. Admins only; erased APPLICATION_RETENTION_DAYS after a decision or a withdrawal, and
-- drafts 30 days after their last change.
CREATE TABLE applications (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- What it is for, kept as applied for (the listing may go); none: picked later or not at all.
  collection text CHECK (collection IN ('properties', 'newConstruction')),
  listing_id text,
  listing_address text,
  status text NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'received', 'under-review', 'approved', 'declined', 'withdrawn')),
  status_at timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  -- A decision or a withdrawal: APPLICATION_RETENTION_DAYS count from here.
  ended_at timestamptz,
  notes text NOT NULL DEFAULT ''
);
CREATE INDEX applications_newest ON applications (submitted_at DESC, id DESC)
  WHERE status <> 'draft';
CREATE INDEX applications_drafts ON applications (updated_at) WHERE status = 'draft';
CREATE INDEX applications_ended ON applications (ended_at) WHERE ended_at IS NOT NULL;

-- Each adult of the household: the main applicant (position 0) and the others they named.
CREATE TABLE applicants (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id bigint NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  position int NOT NULL CHECK (position >= 0),
  -- SHA-256 of the private link's token (the token itself is only in the e-mail and the URL).
  token_hash text NOT NULL UNIQUE,
  token_expires_at timestamptz NOT NULL,
  -- HMAC of the lower-cased e-mail address under the data key: 'Erase this person' finds it.
  email_mac text,
  -- Sealed JSON of the answers, by field name (app/domain/rental-application.ts).
  answers bytea,
  -- Where they stopped (a step id), and when their own part was finished.
  step text NOT NULL DEFAULT 'applicant',
  completed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (application_id, position)
);
CREATE INDEX applicants_email ON applicants (email_mac);

CREATE TABLE application_documents (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  applicant_id bigint NOT NULL REFERENCES applicants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('id', 'income', 'other')),
  -- Where the sealed file is, under the private prefix no public route serves.
  storage_key text NOT NULL UNIQUE,
  -- The file's name as uploaded, sealed.
  name_sealed bytea NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
  bytes int NOT NULL CHECK (bytes > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_documents_applicant ON application_documents (applicant_id, id);

-- 'Viewed by': every time staff open an application; and every change they make.
CREATE TABLE application_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id bigint NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  by_email text,
  action text NOT NULL CHECK (action IN ('viewed', 'status', 'note', 'download')),
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX application_events_application ON application_events (application_id, id);
