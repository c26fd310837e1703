// The code map in docs/architecture.md ("How it fits together") names every folder of `app/`
// and every feature, and nothing that is not there; each feature has a README with the four
// sections docs/architecture.md describes, and every table of db/migrations has exactly one
// owner among them.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(".");
const folders = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The paths named in the code map's block, as written there ("features/leads/", "server/"). */
function codeMap(): string[] {
  const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const block = /## How it fits together[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block, "the code map block in docs/architecture.md").toBeTruthy();
  return (
    (block ?? "")
      .split("\n")
      // The first column, "routes.ts, routes/" and the like; a description follows two spaces.
      .flatMap((line) => (line.trimStart().split(/\s{2,}/)[0] ?? "").split(/,\s*/))
      .filter((entry) => /^[a-z][\w.-]*\/(?:[\w.-]+\/)*$/.test(entry))
  );
}

it("names every folder of app/ and every feature, and only folders that exist", () => {
  const map = codeMap();
  const features = folders("app/features");
  const named = map.filter((p) => p.startsWith("features/")).map((p) => p.split("/")[1]);
  expect([...new Set(named)].sort()).toEqual(features);
  for (const folder of folders("app")) {
    expect(
      map.some((p) => p === `${folder}/` || p.startsWith(`${folder}/`)),
      `app/${folder}`,
    ).toBe(true);
  }
  for (const entry of map) {
    const onDisk = entry === "app/" || fs.existsSync(path.join(root, entry));
    const inApp = fs.existsSync(path.join(root, "app", entry));
    expect(onDisk || inApp, entry).toBe(true);
  }
});

const SECTIONS = ["Tables", "Routes", "Jobs", "Settings"];

/** The tables a README's "## Tables" section lists ("- `name`: …"). */
function ownedTables(readme: string): string[] {
  const section = /\n## Tables\n([\s\S]*?)(?=\n## |$)/.exec(readme)?.[1] ?? "";
  return [...section.matchAll(/^- `([a-z_]+)`/gm)].map((match) => match[1] ?? "");
}

it("gives every feature a README whose tables cover db/migrations once", () => {
  const owners = new Map<string, string[]>();
  for (const feature of folders("app/features")) {
    const file = path.join(root, "app/features", feature, "README.md");
    expect(fs.existsSync(file), `app/features/${feature}/README.md`).toBe(true);
    const readme = fs.readFileSync(file, "utf8");
    expect(readme.startsWith(`# ${feature}\n`), `${feature}'s title`).toBe(true);
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings, `${feature}'s sections`).toEqual(SECTIONS);
    for (const table of ownedTables(readme)) {
      owners.set(table, [...(owners.get(table) ?? []), feature]);
    }
  }
  const migrations = fs
    .readdirSync(path.join(root, "db/migrations"))
    .filter((f) => f.endsWith(".sql"));
  const created = new Set<string>();
  for (const file of migrations) {
    const sql = fs.readFileSync(path.join(root, "db/migrations", file), "utf8");
    for (const match of sql.matchAll(/create table (?:if not exists )?([a-z_]+)/gi)) {
      created.add((match[1] ?? "").toLowerCase());
    }
  }
  for (const table of created) expect(owners.get(table), table).toHaveLength(1);
  for (const table of owners.keys()) expect(created.has(table), table).toBe(true);
});
