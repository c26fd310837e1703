-- Photo captions (docs/behaviour.md §20): the caption of each photo, keyed by its URL, so a
-- caption follows its photo through every reordering. A photo without a key has no caption.
ALTER TABLE listings
  ADD COLUMN image_captions jsonb NOT NULL DEFAULT '{}'::jsonb
  CHECK (jsonb_typeof(image_captions) = 'object');
