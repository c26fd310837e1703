export interface Check {
  what: string;
  value: string;
  budget: string;
  /** null: a figure for information, without a budget. */
  ok: boolean | null;
}

/** One aligned table: measurement, value, budget, PASS/FAIL. */
/** `counted`: the checks the closing line counts (all of a run whose others were printed apart). */
export function printReport(checks: Check[], counted: Check[] = checks) {
  const rows = [
    ["Measurement", "Value", "Budget", ""],
    ...checks.map((c) => [c.what, c.value, c.budget, c.ok === null ? "" : c.ok ? "PASS" : "FAIL"]),
  ];
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((r) => (r[col] as string).length)));
  console.log("");
  for (const [i, row] of rows.entries()) {
    console.log(
      row.map((cell, col) => (col < 3 ? cell.padEnd(widths[col] as number) : cell)).join("  "),
    );
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  const failed = counted.filter((c) => c.ok === false).length;
  console.log(`\n${counted.filter((c) => c.ok).length} budgets met, ${failed} missed.`);
}
