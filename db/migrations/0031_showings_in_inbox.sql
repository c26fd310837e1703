-- Each booked showing is an item of kind 'Showing' in the staff's Inbox, updated live
-- (docs/behaviour.md §33): a change of any showing is announced on the inbox's channel, as a
-- change of the leads is (0012_leads.sql), once per statement.
CREATE TRIGGER showings_inbox_notify AFTER INSERT OR UPDATE OR DELETE ON showings
  FOR EACH STATEMENT EXECUTE FUNCTION leads_notify();
