-- Each listing's 'Showings' (docs/behaviour.md §33): empty for 'Open hours' (renters book the
-- free times of 'Showing hours'), 'request' for 'By request only' (the inquiry form's 'I'd like
-- to see it' with proposed times), 'none' for 'No showings'. Declared with the other facts in
-- app/domain/listing-facts.ts.
ALTER TABLE listings ADD COLUMN showings text CHECK (showings IN ('request', 'none'));
