// The scale benchmark's page table: one row per URL asked, where it landed, and each figure
// marked against its budget (✓ within, ✗ over).

export const SCALE_BUDGETS = {
  lighthouseScore: 0.98,
  lcpMs: 1300,
  tbtMs: 100,
  cls: 0.02,
  htmlBytes: 100 * 1024,
  renderP50Ms: 30,
  filterChangeMs: 300,
} as const;

export interface PageRow {
  asked: string;
  /** Final path and query, with the redirect statuses on the way ('308 → /properties'). */
  landed: string;
  score?: number;
  /** Why Lighthouse gave no figures for this page. */
  lighthouseError?: string;
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  htmlBytes: number;
  domElements?: number;
  renderP50Ms: number;
  renderP99Ms: number;
  /** Requests the render figures come from. */
  renders: number;
}

const mark = (ok: boolean) => (ok ? " ✓" : " ✗");
const or = <T>(v: T | undefined, f: (v: T) => string) => (v === undefined ? "–" : f(v));

export function printPageTable(rows: PageRow[]) {
  const b = SCALE_BUDGETS;
  const header = [
    "URL asked",
    "Answered as",
    `LH score ≥ ${b.lighthouseScore}`,
    `LCP ≤ ${b.lcpMs} ms`,
    `TBT ≤ ${b.tbtMs} ms`,
    `CLS ≤ ${b.cls}`,
    "HTML ≤ 100 KB",
    "DOM elements",
    `render p50 ≤ ${b.renderP50Ms} ms`,
    "render p99 (n)",
  ];
  const table = [
    header,
    ...rows.map((r) => [
      r.asked,
      r.landed,
      r.lighthouseError
        ? "failed ✗"
        : or(r.score, (s) => (s / 100).toFixed(2) + mark(s / 100 >= b.lighthouseScore)),
      or(r.lcpMs, (v) => `${v} ms${mark(v <= b.lcpMs)}`),
      or(r.tbtMs, (v) => `${v} ms${mark(v <= b.tbtMs)}`),
      or(r.cls, (v) => v.toFixed(3) + mark(v <= b.cls)),
      `${Math.round(r.htmlBytes / 1024)} KB${mark(r.htmlBytes <= b.htmlBytes)}`,
      or(r.domElements, String),
      `${r.renderP50Ms} ms${mark(r.renderP50Ms <= b.renderP50Ms)}`,
      `${r.renderP99Ms} ms (${r.renders})`,
    ]),
  ];
  const widths = header.map((_, col) => Math.max(...table.map((row) => (row[col] ?? "").length)));
  console.log("");
  for (const [i, row] of table.entries()) {
    console.log(row.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log("✓ within budget, ✗ over budget, – not measured");
  for (const r of rows) {
    if (r.lighthouseError) console.log(`Lighthouse failed on ${r.asked}: ${r.lighthouseError}`);
  }
}
