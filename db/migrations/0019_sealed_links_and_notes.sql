-- Private links are not stored usable (docs/decisions/0074-private-links-sealed-in-the-outbox.md):
-- an e-mail that carries one holds `{{link:n}}` in its body and the links sealed under the
-- applications' data key here, put in only as it is sent; once sent, they are dropped.
ALTER TABLE outbox ADD COLUMN sealed_links bytea;

-- Staff notes on an application are sealed like its answers. Notes written before stay in
-- `notes` until the server seals them at its next start (it has the key; SQL does not).
ALTER TABLE applications ADD COLUMN notes_sealed bytea;
