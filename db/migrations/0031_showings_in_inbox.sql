-- Each booked showing is an item of kind 'Showing' in the staff's Inbox, updated live
-- (docs/behaviour.md §33): a change of a showing is announced on the inbox's channel. Per row,
-- so that a statement that changes nothing (an hourly purge with nothing to purge, a link
-- cancelled twice) reloads no open Inbox; PostgreSQL sends one notification per transaction
-- however many rows. The showings' own function: the leads' (0012_leads.sql) stays theirs.
CREATE FUNCTION showings_inbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('leads_changed', '');
  RETURN NULL;
END $$;
CREATE TRIGGER showings_inbox_notify AFTER INSERT OR UPDATE OR DELETE ON showings
  FOR EACH ROW EXECUTE FUNCTION showings_inbox_notify();
