// 'Import CSV' on /admin/listings: a file in the export's format is checked row by row (the dry
// run), and added only when every row passes, in one transaction. Nothing here trusts the
// browser: the import checks the file again.
import { CsvError, parse } from "csv-parse/sync";
import { listingKey } from "~/domain/listing";
import { listingWarnings } from "~/domain/listing-check";
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_ROWS, type CsvColumn } from "~/domain/listing-csv";
import { FACT_FIELDS, groupDigits } from "~/domain/listing-facts";
import { SPEC_FIELDS, SPEC_KEYS } from "~/domain/listing-fields";
import { type Collection, isCollection, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { unguardFormula } from "~/shared/csv.server";
import type { Queryable } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import { type ListingFields, parseListingFields } from "./listing-input.server";

/** A row that passed: what ListingWrites.addMany() stores. */
export interface ReadyRow {
  /** The row's first line in the file (the header is line 1). */
  line: number;
  collection: Collection;
  id: string;
  fields: ListingFields;
  /** The 'Listing check' of the row (docs/behaviour.md §29): shown, never a refusal. */
  warnings: string[];
}

export interface RefusedRow {
  line: number;
  reason: string;
}

export interface CsvCheck {
  ready: ReadyRow[];
  refused: RefusedRow[];
}

/** Columns a construction never has: a value there is refused, not silently dropped. */
const PROPERTY_ONLY: readonly CsvColumn[] = [
  ...SPEC_KEYS.filter((k) => SPEC_FIELDS[k].propertiesOnly),
  ...FACT_FIELDS.filter((f) => f.propertiesOnly).map((f) => f.key),
];

/**
 * The dry run: every row's verdict, or an HttpError (400/413) for a file that is no CSV of
 * listings at all (empty, too big, binary, not UTF-8, broken quoting, wrong header, too many rows).
 */
export async function checkCsv(db: Queryable, bytes: Uint8Array): Promise<CsvCheck> {
  const records = parseRecords(decode(bytes));
  const header = checkHeader(records[0]?.record);
  const ready: ReadyRow[] = [];
  const refused: RefusedRow[] = [];
  const firstLineOf = new Map<string, number>();
  let previousEnd = records[0]?.info.lines ?? 1;
  for (const { record, info } of records.slice(1)) {
    const line = previousEnd + 1;
    previousEnd = info.lines;
    if (record.every((cell) => cell.trim() === "")) continue; // a blank line
    const verdict = checkRow(header, record);
    if ("reason" in verdict) {
      refused.push({ line, reason: verdict.reason });
      continue;
    }
    const key = `${verdict.collection}/${verdict.id}`;
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      refused.push({ line, reason: `Duplicate address: line ${first} has the same address.` });
      continue;
    }
    firstLineOf.set(key, line);
    ready.push({ line, ...verdict });
  }
  await refuseExisting(db, ready, refused);
  refused.sort((a, b) => a.line - b.line);
  return { ready, refused };
}

function decode(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new HttpError(400, "The file is empty.");
  if (bytes.length > CSV_MAX_BYTES) throw tooLarge();
  // NUL never occurs in text: a spreadsheet (.xlsx), an image or UTF-16 text.
  if (bytes.includes(0)) {
    throw new HttpError(
      400,
      "This is not a CSV text file. Save the spreadsheet as 'CSV UTF-8 (comma delimited)' and try again.",
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(
      400,
      "The file is not UTF-8 text. Save it as 'CSV UTF-8 (comma delimited)' and try again.",
    );
  }
}

export const tooLarge = () =>
  new HttpError(413, `The file is too large: at most ${CSV_MAX_BYTES / 1024 / 1024} MB.`);

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

function parseRecords(text: string): ParsedRecord[] {
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      // Rows with a wrong number of cells are refused one by one below, with their line.
      relax_column_count: true,
      // Blank lines are kept so that every record's first line can be told.
      skip_empty_lines: false,
      // The header and one record more than allowed: enough to say there are too many.
      to: CSV_MAX_ROWS + 2,
    }) as unknown as ParsedRecord[];
  } catch (error) {
    if (error instanceof CsvError) {
      throw new HttpError(400, `The file is not valid CSV: ${error.message}`);
    }
    throw error;
  }
  if (records.length === 0) throw new HttpError(400, "The file is empty.");
  if (records.length > CSV_MAX_ROWS + 1) {
    throw new HttpError(
      400,
      `The file has more than ${groupDigits(CSV_MAX_ROWS)} rows: split it into smaller files.`,
    );
  }
  return records;
}

const KNOWN = new Set<string>(CSV_COLUMNS);

/** The header's column names, checked: known, each once, collection and address present. */
function checkHeader(row: string[] | undefined): CsvColumn[] {
  const names = (row ?? []).map((n) => n.trim());
  const unknown = names.filter((n) => !KNOWN.has(n));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).map((n) => `'${n.slice(0, 40)}'`);
    throw new HttpError(
      400,
      `The first line must name the columns (as an exported file does); unknown: ${shown.join(", ")}${unknown.length > 5 ? " …" : ""}. Known columns: ${CSV_COLUMNS.join(", ")}.`,
    );
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new HttpError(400, `The first line names the column '${twice}' twice.`);
  if (!names.includes("collection") || !names.includes("address")) {
    throw new HttpError(
      400,
      "The first line must name at least the columns collection and address.",
    );
  }
  return names as CsvColumn[];
}

type RowVerdict = Omit<ReadyRow, "line"> | { reason: string };

function checkRow(header: CsvColumn[], record: string[]): RowVerdict {
  if (record.length !== header.length) {
    return {
      reason: `The row has ${record.length} cells; the first line names ${header.length} columns.`,
    };
  }
  // The export's formula guards come off (decision 0077): a file reads back as it was exported.
  const cells = new Map(header.map((name, i) => [name, unguardFormula(record[i] ?? "")]));
  const kind = (cells.get("collection") ?? "").trim();
  if (!isCollection(kind)) {
    return {
      reason: `Unknown kind '${kind.slice(0, 40)}': the collection must be properties or newConstruction.`,
    };
  }
  if (!KINDS[kind].hasOffer) {
    const given = PROPERTY_ONLY.find((c) => (cells.get(c) ?? "").trim() !== "");
    if (given)
      return { reason: `A construction has no ${given.replaceAll("_", " ")}; leave it empty.` };
  }
  const available = (cells.get("currently_available") ?? "").trim().toLowerCase();
  if (!["", "true", "false"].includes(available)) {
    return { reason: "The currently available must be true or false." };
  }
  const raw: Record<string, unknown> = {};
  for (const [name, value] of cells) {
    if (name === "collection" || name === "photos") continue; // photos are not imported
    raw[name] = value;
  }
  raw.currently_available = available === "true";
  // A blank type is the forms' default, as a missing one is.
  if ((cells.get("property_type") ?? "").trim() === "") delete raw.property_type;
  try {
    const fields = parseListingFields(kind, raw);
    const warnings = listingWarnings(kind, fields);
    return { collection: kind, id: listingKey(fields.address), fields, warnings };
  } catch (error) {
    if (error instanceof HttpError) return { reason: error.message };
    throw error;
  }
}

/** The spec's key rule: an address whose key a listing of the same kind has is a duplicate. */
async function refuseExisting(db: Queryable, ready: ReadyRow[], refused: RefusedRow[]) {
  if (ready.length === 0) return;
  const taken = await db.query<{ collection: Collection; id: string }>(
    "SELECT collection, id FROM listings WHERE id = ANY($1::text[])",
    [ready.map((r) => r.id)],
  );
  const takenKeys = new Set(taken.map((t) => `${t.collection}/${t.id}`));
  for (let i = ready.length - 1; i >= 0; i--) {
    const row = ready[i] as ReadyRow;
    if (!takenKeys.has(`${row.collection}/${row.id}`)) continue;
    refused.push({
      line: row.line,
      reason: `Duplicate address: ${messages.duplicateAddress(KINDS[row.collection].noun)}`,
    });
    ready.splice(i, 1);
  }
}

/** The import: the dry run again, and nothing unless every row passes. */
export async function readyToImport(db: Queryable, bytes: Uint8Array): Promise<ReadyRow[]> {
  const { ready, refused } = await checkCsv(db, bytes);
  if (refused.length > 0) {
    throw new HttpError(
      400,
      `${refused.length} ${refused.length === 1 ? "row is" : "rows are"} refused (the first on line ${refused[0]?.line}): nothing was imported. Correct the file and check it again.`,
      "refused",
    );
  }
  if (ready.length === 0) throw new HttpError(400, "The file has no listings to import.");
  return ready;
}
