// A strict RFC 4180 reading of a CSV file, as spreadsheets read it: quotes never relaxed, every
// record the header's width, and any line break outside quotes ends a record (a bare "\n" in an
// unquoted field is a new row there, which csv-parse's default would quietly keep in the field).
import { parse } from "csv-parse/sync";

export function parseStrictCsv(csv: string): string[][] {
  return parse(csv, {
    relax_quotes: false,
    relax_column_count: false,
    record_delimiter: ["\r\n", "\n", "\r"],
  }) as string[][];
}
