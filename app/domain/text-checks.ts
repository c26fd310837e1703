// The checks every public form runs on typed text (inquiries, alerts, applications): their own
// module, so that a page checking an application does not ship the inquiry form's texts
// (docs/decisions/0077-csv-guards-and-light-public-pages.md).

/** An e-mail address as the forms accept it. (No control characters: a NUL is no text to PostgreSQL.) */
export const EMAIL_PATTERN =
  /^[^\s@<>(),;:"[\]\\\p{Cc}]+@[^\s@<>(),;:"[\]\\\p{Cc}]+\.[^\s@<>(),;:"[\]\\\p{Cc}]+$/u;

/** A control character other than tab and line breaks (which a message may hold); a NUL is no text to PostgreSQL. */
export const CONTROL = {
  test: (text: string) =>
    [...text].some((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      return (c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127;
    }),
};
