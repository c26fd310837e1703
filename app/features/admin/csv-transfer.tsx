import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import {
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  dryRunSummary,
  importButtonLabel,
} from "~/domain/listing-csv";
import { groupDigits } from "~/domain/listing-facts";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest } from "./api-client";

interface DryRun {
  ready: { line: number; collection: string; address: string; warnings: string[] }[];
  refused: { line: number; reason: string }[];
}

type State =
  | { step: "idle" }
  | { step: "checking" | "importing"; file: File; dryRun?: DryRun }
  | { step: "checked"; file: File; dryRun: DryRun }
  | { step: "failed"; message: string }
  | { step: "imported"; count: number };

/**
 * 'Export CSV' (a plain download) and 'Import CSV': choosing a file runs the dry run on the
 * server; only a file without refused rows offers 'Import {n} listings', which sends the same
 * file again for the server to check and add.
 */
export function CsvTransfer({ mayImport }: { mayImport: boolean }) {
  const [state, setState] = useState<State>({ step: "idle" });
  const input = useRef<HTMLInputElement>(null);
  const { revalidate } = useRevalidator();
  const hydrated = useHydrated();

  async function check(file: File) {
    setState({ step: "checking", file });
    // Cleared so that choosing the corrected file (same name) again is a change too.
    if (input.current) input.current.value = "";
    try {
      const dryRun = await apiRequest<DryRun>("POST", "/api/listings-csv/check", asCsv(file));
      setState({ step: "checked", file, dryRun });
    } catch (error) {
      setState({ step: "failed", message: (error as Error).message });
    }
  }

  async function importFile(file: File, dryRun: DryRun) {
    setState({ step: "importing", file, dryRun });
    try {
      const { imported } = await apiRequest<{ imported: number }>(
        "POST",
        "/api/listings-csv/import",
        asCsv(file),
      );
      setState({ step: "imported", count: imported });
      await revalidate();
    } catch (error) {
      setState({ step: "failed", message: (error as Error).message });
    }
  }

  const dryRun = "dryRun" in state ? state.dryRun : undefined;
  return (
    <section className="admin-block" aria-labelledby="csv-heading">
      <h2 id="csv-heading">CSV</h2>
      <p>
        <a className="btn btn-secondary" href="/api/listings-csv" download>
          Export CSV
        </a>
      </p>
      {mayImport ? null : <p>Every listing of both kinds, one row each.</p>}
      {mayImport ? (
        <>
          <p>
            Every listing of both kinds, one row each. To add listings, fill rows in the same
            columns (at most {groupDigits(CSV_MAX_ROWS)} rows and {CSV_MAX_BYTES / 1024 / 1024} MB a
            file) and import the file: it is checked first, and added only when every row is right.
            The photos column is not imported: add photos on each listing's edit page.
          </p>
          <label htmlFor="csv-file">Import CSV</label>{" "}
          <input
            ref={input}
            id="csv-file"
            type="file"
            accept=".csv,text/csv"
            disabled={!hydrated || state.step === "checking" || state.step === "importing"}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) void check(file);
            }}
          />
          <div aria-live="polite">
            {state.step === "checking" ? <p>Checking the file…</p> : null}
            {state.step === "failed" ? (
              <p className="alert-error" role="alert">
                {state.message}
              </p>
            ) : null}
            {state.step === "imported" ? (
              <p role="status">{state.count} listings imported.</p>
            ) : null}
            {dryRun && state.step !== "failed" && state.step !== "imported" ? (
              <DryRunReport
                fileName={"file" in state ? state.file.name : ""}
                dryRun={dryRun}
                importing={state.step === "importing"}
                onImport={() => "file" in state && importFile(state.file, dryRun)}
              />
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}

function DryRunReport({
  fileName,
  dryRun,
  importing,
  onImport,
}: {
  fileName: string;
  dryRun: DryRun;
  importing: boolean;
  onImport: () => void;
}) {
  const n = dryRun.ready.length;
  const m = dryRun.refused.length;
  const warned = dryRun.ready.flatMap((r) => r.warnings.map((text) => ({ line: r.line, text })));
  return (
    <div className="csv-dry-run">
      <p>Checked {fileName}:</p>
      <p data-testid="dry-run-summary">{dryRunSummary(n, m)}</p>
      {m > 0 ? (
        <>
          <p>
            Nothing is imported until every row is right. Correct these rows and choose the file
            again:
          </p>
          <ul data-testid="refused-rows">
            {dryRun.refused.map((r) => (
              <li key={`${r.line}:${r.reason}`}>
                Line {r.line}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      ) : n > 0 ? (
        <button type="button" className="btn btn-primary" onClick={onImport} disabled={importing}>
          {importing ? <span className="spinner" aria-hidden="true" /> : null}
          {importButtonLabel(n)}
        </button>
      ) : (
        <p>The file has no listings to import.</p>
      )}
      {warned.length > 0 ? (
        <>
          <p>Listing check (suggestions; they never stop the import):</p>
          <ul data-testid="row-warnings">
            {warned.map((w) => (
              <li key={`${w.line}:${w.text}`}>
                Line {w.line}: {w.text}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** The file as the body, typed as CSV whatever the browser guessed from its name. */
function asCsv(file: File): Blob {
  return new Blob([file], { type: "text/csv" });
}
