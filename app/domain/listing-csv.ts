// The staff CSV of every listing (docs/behaviour.md §25): one column per field, in this order, for
// export and import alike. Its texts are labels the tests and staff rely on.
import { FIELD_KEYS } from "./listing-fields";

/** The kind, every field of listing-fields.ts in its order, then the photos. */
export const CSV_COLUMNS = ["collection", ...FIELD_KEYS, "photos"] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** At most this many bytes a file; a bigger upload is refused before it is read. */
export const CSV_MAX_BYTES = 5 * 1024 * 1024;
/** At most this many listings (rows after the header) a file. */
export const CSV_MAX_ROWS = 10_000;

/** '3 rows ready, 1 refused' (the dry run's summary). */
export function dryRunSummary(ready: number, refused: number): string {
  return `${ready} rows ready, ${refused} refused`;
}

/** 'Import 3 listings' (the button that adds them). */
export function importButtonLabel(ready: number): string {
  return `Import ${ready} listings`;
}
