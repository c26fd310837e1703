// Where the online application lives (docs/behaviour.md §32), apart from its fields: the spec's
// 'How to Apply' page links here and loads nothing else of the application.
export const APPLY_ONLINE = "Apply online";
/** The first step (before there is a private link) and the private link's page. */
export const APPLY_PATH = "/rental-application/apply";
export const CONTINUE_PATH = "/rental-application/continue";
