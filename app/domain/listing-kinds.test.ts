// A listing named in one value ('properties/12-main-st'): what forms and the inbox's filter
// accept, and everything they refuse; and which kind's page a path is.
import { describe, expect, it } from "vitest";
import { kindOfPath, parseListingRef } from "./listing-kinds";

describe("parseListingRef", () => {
  it("reads both kinds", () => {
    expect(parseListingRef("properties/12-main-st")).toEqual({
      collection: "properties",
      id: "12-main-st",
    });
    expect(parseListingRef("newConstruction/lot-4")).toEqual({
      collection: "newConstruction",
      id: "lot-4",
    });
  });

  it.each([
    "",
    "properties",
    "properties/",
    "/12-main-st",
    "houses/12-main-st",
    "properties/12/main",
    "properties/12 main",
    `properties/${"a".repeat(301)}`,
    "constructor/x",
  ])("refuses %j", (value) => {
    expect(parseListingRef(value)).toBeNull();
  });
});

describe("kindOfPath", () => {
  it.each([
    ["/properties/12-main-st/history", "properties"],
    ["/new-construction/oak-row/history", "newConstruction"],
    ["/editproperties/12-main-st", "properties"],
    ["/edit-construction/oak-row", "newConstruction"],
    ["/addproperty", "properties"],
    ["/addnewconstruction", "newConstruction"],
    // Routes match whatever their case.
    ["/AddNewConstruction", "newConstruction"],
    ["/EditProperties/12-main-st", "properties"],
  ])("%s is a page of %s", (path, collection) => {
    expect(kindOfPath(path).collection).toBe(collection);
  });

  it("names no kind for another page", () => {
    expect(() => kindOfPath("/admin/listings")).toThrow();
  });
});
