import { describe, expect, it } from "vitest";
import {
  APPLICATION_ERRORS,
  APPLICATION_LABELS,
  APPLICATION_STEPS,
  answersFrom,
  checkStep,
  isIsoDate,
  otherAdults,
  repeated,
  STEP_FIELDS,
} from "./rental-application";

const today = "2026-11-26";
const applicant = {
  fullName: "Ana Renter",
  email: "ana@example.com",
  phone: "703-555-0199",
  dateOfBirth: "1990-04-01",
  moveIn: "2027-01-01",
  occupants: "3",
};

describe("the rental application's fields", () => {
  it("has the issue's steps, in order", () => {
    expect(APPLICATION_STEPS.map((s) => s.title)).toEqual([
      "Applicant",
      "Where you live now",
      "Employment and income",
      "References",
      "Other adults",
      "Documents",
      "Review and submit",
    ]);
    expect(APPLICATION_LABELS.confirm).toBe(
      "I confirm the information is true and I agree to a background and credit check.",
    );
    expect(APPLICATION_LABELS.savedLater("ana@example.com")).toBe(
      "We sent a link to ana@example.com so you can finish later.",
    );
  });

  it("never asks about a class the fair-housing laws protect", () => {
    const labels = Object.values(STEP_FIELDS)
      .flat()
      .map((spec) => spec.label.toLowerCase());
    expect(labels.length).toBeGreaterThan(20);
    for (const word of [
      "race",
      "colo",
      "religio",
      "sex",
      "gender",
      "national",
      "origin",
      "citizen",
      "disab",
      "handicap",
      "familial",
      "children",
      "pregnan",
      "married",
      "marital",
    ]) {
      expect(labels.filter((label) => label.includes(word))).toEqual([]);
    }
  });

  it("declares each field once", () => {
    const names = Object.values(STEP_FIELDS)
      .flat()
      .map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("checkStep", () => {
  it("accepts a complete 'Applicant' step", () => {
    expect(checkStep("applicant", applicant, today)).toEqual({});
  });

  it("names each missing required field, and keeps nothing back", () => {
    expect(checkStep("applicant", {}, today)).toEqual({
      fullName: "Fill in 'Full name'.",
      email: "Fill in 'E-mail'.",
      phone: "Fill in 'Phone'.",
      dateOfBirth: "Fill in 'Date of birth'.",
      moveIn: "Fill in 'Desired move-in date'.",
      occupants: "Fill in 'Number of occupants'.",
    });
  });

  it("checks e-mail, dates, counts, money and phones", () => {
    const errors = checkStep(
      "applicant",
      {
        ...applicant,
        email: "ana@",
        dateOfBirth: "2030-01-01",
        moveIn: "2026-11-25",
        occupants: "0",
        phone: "call me",
      },
      today,
    );
    expect(errors).toEqual({
      email: APPLICATION_ERRORS.email,
      dateOfBirth: APPLICATION_ERRORS.past,
      moveIn: APPLICATION_ERRORS.future,
      occupants: APPLICATION_ERRORS.count,
      phone: APPLICATION_ERRORS.tel,
    });
    expect(checkStep("applicant", { ...applicant, moveIn: today }, today)).toEqual({});
    expect(checkStep("applicant", { ...applicant, dateOfBirth: "1990-02-30" }, today)).toEqual({
      dateOfBirth: APPLICATION_ERRORS.date,
    });
    const income = (monthlyIncome: string) =>
      checkStep("employment", { monthlyIncome }, today).monthlyIncome;
    expect(income("4200")).toBeUndefined();
    expect(income("$4,200.50")).toBeUndefined();
    expect(income("lots")).toBe(APPLICATION_ERRORS.money);
  });

  it("refuses control characters and overlong answers", () => {
    expect(checkStep("applicant", { ...applicant, fullName: "Ana\u0000" }, today).fullName).toBe(
      APPLICATION_ERRORS.control,
    );
    expect(
      checkStep("applicant", { ...applicant, fullName: "a".repeat(201) }, today).fullName,
    ).toBe(APPLICATION_ERRORS.tooLong(200));
  });

  it("wants both a name and an e-mail for each other adult, and not the applicant's own", () => {
    const answers = {
      email: "ana@example.com",
      [repeated("adult", 0, "name")]: "Ben Renter",
      [repeated("adult", 0, "email")]: "ben@example.com",
      [repeated("adult", 1, "name")]: "Cy",
      [repeated("adult", 2, "name")]: "Ana again",
      [repeated("adult", 2, "email")]: "ANA@example.com",
    };
    expect(checkStep("adults", answers, today)).toEqual({
      "adult.1.email": APPLICATION_ERRORS.adultPair,
      "adult.2.email": APPLICATION_ERRORS.adultIsYou,
    });
    expect(otherAdults(answers)).toEqual([
      { name: "Ben Renter", email: "ben@example.com" },
      { name: "Ana again", email: "ANA@example.com" },
    ]);
  });

  it("reads only the step's declared fields from a form", () => {
    const form = new Map<string, unknown>([
      ["fullName", "Ana"],
      ["isAdmin", "yes"],
      ["email", 42],
    ]);
    const answers = answersFrom("applicant", (name) => form.get(name));
    expect(answers.fullName).toBe("Ana");
    expect(answers.email).toBe("");
    expect(Object.keys(answers)).toEqual(STEP_FIELDS.applicant.map((s) => s.name));
  });

  it("knows a real date", () => {
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2027-02-29")).toBe(false);
    expect(isIsoDate("2027-2-1")).toBe(false);
  });
});
