// The decision index (docs/decisions/README.md) lists every record once, in order, under the
// number and file name the record has, and its table header is whole.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";

const dir = path.resolve("docs/decisions");

it("lists every decision record once, in order, and nothing else", async () => {
  const files = (await fs.readdir(dir)).filter((f) => /^\d{4}-.+\.md$/.test(f)).sort();
  const index = await fs.readFile(path.join(dir, "README.md"), "utf8");
  const rows = index.split("\n").filter((line) => line.startsWith("|"));
  expect(rows[0]).toMatch(/^\| #\s+\| Decision\s+\| Area\s+\|$/);
  expect(rows[1]).toMatch(/^\|( -+ \|){3}$/);
  const listed = rows.slice(2).map((row) => {
    const match = /^\| \[(\d{4})\]\((\d{4}-[^)]+\.md)\)/.exec(row);
    expect(match, row).not.toBeNull();
    const [, number = "", file = ""] = match as RegExpExecArray;
    expect(file.startsWith(`${number}-`), row).toBe(true);
    return file;
  });
  expect(listed).toEqual(files);
  // Each record's title carries its own number.
  for (const file of files) {
    const title = (await fs.readFile(path.join(dir, file), "utf8")).split("\n", 1)[0];
    expect(title, file).toMatch(new RegExp(`^# ${file.slice(0, 4)}\\D`));
  }
});
