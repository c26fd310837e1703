import { useId } from "react";
import { checkListing } from "~/domain/listing-check";
import type { ListingKind } from "~/domain/listing-kinds";
import { checkedFromForm, type ListingFormValues } from "./form-values";

/**
 * The 'Listing check' of the Add and Edit forms (docs/behaviour.md §29): the warnings of
 * app/domain/listing-check.ts for what is typed now, recomputed on every change. It never
 * blocks saving.
 */
export function ListingCheckPanel({
  kind,
  values,
  captions,
}: {
  kind: ListingKind;
  values: ListingFormValues;
  captions: readonly string[];
}) {
  const id = useId();
  const warnings = checkListing(kind.collection, checkedFromForm(values, captions));
  return (
    <section className="listing-check" aria-labelledby={id} data-testid="listing-check">
      <h2 id={id}>Listing check</h2>
      {warnings.length === 0 ? (
        <p className="form-note">Nothing to point out.</p>
      ) : (
        <ul>
          {warnings.map((w) => (
            <li key={w.text} className={`check-${w.kind}`}>
              {w.text}
            </li>
          ))}
        </ul>
      )}
      <p className="form-note">These are suggestions: saving is never blocked by them.</p>
    </section>
  );
}
