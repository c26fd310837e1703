export interface Check {
  what: string;
  value: string;
  budget: string;
  /** null: a figure for information, without a budget. */
  ok: boolean | null;
}

/** One aligned table: measurement, value, budget, PASS/FAIL. */
export function printReport(checks: Check[]) {
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
  const failed = checks.filter((c) => c.ok === false).length;
  console.log(`\n${checks.filter((c) => c.ok).length} budgets met, ${failed} missed.`);
}
