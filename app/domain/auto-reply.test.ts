import { describe, expect, it } from "vitest";
import { autoReplyProblem, DEFAULT_AUTO_REPLY, renderAutoReply } from "./auto-reply";

const VALUES = {
  address: "7 Elm St",
  rent: "$1,900",
  bedrooms: "2",
  bathrooms: "1",
  available_from: "now",
  schedule_link: "",
  screening_criteria: "Income of three times the rent.",
  office_phone: "703-555-0100",
  office_email: "office@example.com",
  company_name: "Elm Leasing",
};

describe("the automatic reply's text", () => {
  it("takes the default and every placeholder, and refuses unknown ones and stray braces", () => {
    expect(autoReplyProblem(DEFAULT_AUTO_REPLY)).toBeNull();
    expect(autoReplyProblem("Hello from {company_name}.")).toBeNull();
    expect(autoReplyProblem("Dear {name},")).toMatch(
      /^The automatic reply has an unknown placeholder \{name\}\. It may use \{address\}, /,
    );
    expect(autoReplyProblem("Rent {rent per month")).toMatch(
      /a '\{' or '\}' that is no placeholder/,
    );
    expect(autoReplyProblem("  \n ")).toBe("Write the automatic reply, or turn it off.");
  });

  it("fills the placeholders and drops the line of a link that is not there", () => {
    const text = "About {address}:\n\nRent: {rent}\n{schedule_link}\n\n\nCall {office_phone}.";
    expect(renderAutoReply(text, VALUES)).toBe(
      "About 7 Elm St:\n\nRent: $1,900\n\nCall 703-555-0100.",
    );
    expect(
      renderAutoReply(text, { ...VALUES, schedule_link: "Schedule a showing: https://x/p#s" }),
    ).toContain("Rent: $1,900\nSchedule a showing: https://x/p#s\n");
  });
});
