-- Site settings (docs/behaviour.md §18): what the staff changed about the company's content.
-- One row; `content` holds only the fields that differ from the defaults in app/domain/company.ts,
-- so a field the code adds later keeps its default until someone sets it.
CREATE TABLE site_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  content jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(content) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

-- Every change is announced, whoever makes it (server, CLI, psql), so every instance drops
-- its kept pages (server/page-cache.ts) before the next request.
CREATE FUNCTION notify_site_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('site_changed', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER site_settings_changed
AFTER INSERT OR UPDATE OR DELETE ON site_settings
FOR EACH STATEMENT EXECUTE FUNCTION notify_site_change();
