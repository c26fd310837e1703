// Phrases in a rental ad that US and Virginia fair-housing rules treat as stating a preference,
// limitation or discrimination, for the 'Listing check' (docs/behaviour.md §29). The list is a
// help for staff, not legal advice: it warns and never blocks a save.
//
// Sources:
// - Fair Housing Act, 42 U.S.C. § 3604(c), and 24 CFR § 100.75 (discriminatory advertisements):
//   no notice or advertisement may indicate a preference, limitation or discrimination based on
//   race, color, religion, sex, handicap, familial status or national origin.
// - HUD, "Guidance Regarding Advertisements Under § 804(c) of the Fair Housing Act" (the
//   Achtenberg memorandum, January 9, 1995): describing the property ("two bedrooms", "no
//   elevator", "near a church" as a landmark) is fine; describing who may live there ("adults
//   only", "no children", "Christian home", "no wheelchairs", "English speakers only") is not.
// - Virginia Fair Housing Law, Va. Code § 36-96.3: adds elderliness, source of funds (since
//   July 1, 2020: "no Section 8", "no vouchers"), sexual orientation, gender identity and
//   military status to the federal classes.
//
// Each entry: the protected ground, what the phrase may do (after 'may'), what to write
// instead, and the phrases. Phrases are matched as whole words, ignoring case, with any run of
// spaces or hyphens between their words ("adults-only" is "adults only").

export interface FairHousingGround {
  /** The protected class the phrases touch (for the docs; not shown). */
  ground: string;
  /** What the phrase may do, after 'may' ("discourage families"). */
  effect: string;
  /** The neutral alternative. */
  instead: string;
  phrases: readonly string[];
}

const PEOPLE_NOT_PROPERTY = "Describe the property, not the people.";

export const FAIR_HOUSING_GROUNDS: readonly FairHousingGround[] = [
  {
    ground: "familial status",
    effect: "discourage families",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: [
      "no children",
      "no kids",
      "no teenagers",
      "no infants",
      "adults only",
      "adult only",
      "adult building",
      "perfect for singles",
      "ideal for singles",
      "singles only",
      "couples only",
      "perfect for a couple",
      "ideal for a couple",
      "married couples only",
      "mature couple",
      "empty nesters",
      "one child only",
    ],
  },
  {
    ground: "religion",
    effect: "signal a preference by religion",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: [
      "Christian home",
      "Christian family",
      "Christians only",
      "Christian tenants",
      "Christian neighborhood",
      "Jewish home",
      "Muslim home",
      "no Muslims",
    ],
  },
  {
    ground: "disability",
    effect: "turn away people with disabilities",
    instead:
      'Describe the property\'s features ("second floor, no elevator"), not who can live there.',
    phrases: [
      "no wheelchairs",
      "no handicapped",
      "not suitable for handicapped",
      "no disabled",
      "able-bodied",
      "must be able to climb stairs",
      "no mentally ill",
      "no service animals",
    ],
  },
  {
    ground: "national origin",
    effect: "turn away people by national origin",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: [
      "English speakers only",
      "English speaking only",
      "English only",
      "must speak English",
      "no immigrants",
      "no foreigners",
      "Americans only",
    ],
  },
  {
    ground: "race or color",
    effect: "signal a preference by race or color",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: ["whites only", "white only", "white neighborhood", "white family", "no blacks"],
  },
  {
    ground: "sex",
    effect: "signal a preference by sex",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: ["men only", "women only", "male only", "female only", "no men", "no women"],
  },
  {
    ground: "source of funds (Virginia)",
    effect: "refuse a source of funds that Virginia law protects",
    instead: "State the rent and the screening criteria; every lawful source of funds counts.",
    phrases: [
      "no Section 8",
      "Section 8 not accepted",
      "no vouchers",
      "no housing vouchers",
      "no housing choice vouchers",
      "no government assistance",
    ],
  },
  {
    ground: "elderliness (Virginia)",
    effect: "discourage older renters",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: ["no seniors", "no elderly", "no retirees", "young professionals only"],
  },
  {
    ground: "military status (Virginia)",
    effect: "discourage service members",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: ["no military"],
  },
  {
    ground: "sexual orientation and gender identity (Virginia)",
    effect: "signal a preference by sexual orientation or gender identity",
    instead: PEOPLE_NOT_PROPERTY,
    phrases: ["straight couples only", "no gays", "no LGBT"],
  },
];
