-- Leads (docs/behaviour.md §27; issue 21): an inquiry or a showing request sent from a listing's
-- 'Ask about this listing' or the contact page's 'Send us a message', and what staff did with
-- it. Personal data: admins only, deleted LEAD_RETENTION_DAYS after it is closed, or at once by
-- 'Erase this person'. The listing's address is kept as it was sent (the listing may go).
CREATE TABLE leads (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('inquiry', 'showing')),
  collection text CHECK (collection IN ('properties', 'newConstruction')),
  listing_id text,
  listing_address text,
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL DEFAULT '',
  message text NOT NULL,
  -- Up to three 'Preferred time' values as typed (YYYY-MM-DDTHH:MM, the listing's local time).
  preferred_times text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'new'
    CHECK (status IN ('new', 'contacted', 'showing-scheduled', 'closed')),
  notes text NOT NULL DEFAULT '',
  closed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leads_newest ON leads (created_at DESC, id DESC);
CREATE INDEX leads_status ON leads (status, created_at DESC);
CREATE INDEX leads_listing ON leads (collection, listing_id);
CREATE INDEX leads_email ON leads (lower(email));
CREATE INDEX leads_closed ON leads (closed_at) WHERE status = 'closed';

-- Every change staff make to a lead, with who and when.
CREATE TABLE lead_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lead_id bigint NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  by_email text,
  action text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX lead_events_lead ON lead_events (lead_id, id);

-- Announces every change of the leads, for the staff's live inbox.
CREATE FUNCTION leads_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('leads_changed', '');
  RETURN NULL;
END $$;
CREATE TRIGGER leads_notify AFTER INSERT OR UPDATE OR DELETE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_notify();
