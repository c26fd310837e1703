// A listing named in one value ('properties/12-main-st'): what forms and the inbox's filter
// accept, and everything they refuse.
import { describe, expect, it } from "vitest";
import { parseListingRef } from "./listing-kinds";

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
