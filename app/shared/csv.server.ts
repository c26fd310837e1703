// The staff CSV files (docs/behaviour.md §25, §27): RFC 4180 with CRLF, every field that holds a
// line break quoted, and a cell a spreadsheet would run as a formula guarded by a leading "'"
// (decision 0077). The listings import takes the guard off again, so its own export reads back
// unchanged.
import { stringify } from "csv-stringify/sync";

/** What csv-stringify's escape_formulas guards: a cell starting with one of these. */
const TRIGGER = "=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20";
/** A cell that already starts with "'"s before a trigger: guarded once more, so the guard is undone exactly. */
const QUOTED_TRIGGER = new RegExp(`^'+[${TRIGGER}]`);

export function toCsv(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (QUOTED_TRIGGER.test(cell) ? `'${cell}` : cell))),
    {
      // CRLF as RFC 4180 says; every spreadsheet reads it.
      record_delimiter: "windows",
      // With a record_delimiter set, csv-stringify leaves a bare "\n" unquoted: quote it.
      quoted_match: /[\r\n]/,
      escape_formulas: true,
    },
  );
}

/** The cell as it was before toCsv guarded it: one "'" off a cell where "'"s lead to a trigger. */
export function unguardFormula(cell: string): string {
  return QUOTED_TRIGGER.test(cell) ? cell.slice(1) : cell;
}
