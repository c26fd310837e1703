import { useEffect, useId, useRef, useState } from "react";
import { isIsoDate } from "~/domain/listing-facts";
import { type ListingKind, PROPERTY_TYPES } from "~/domain/listing-kinds";
import {
  BATHS_CHOICES,
  BEDS_CHOICES,
  type ListSearch,
  PET_CHOICES,
  type PetChoice,
  SORT_LABELS,
  SORTS,
  type SortKey,
} from "~/domain/listing-search";

interface ListFilterBarProps {
  kind: ListingKind;
  search: ListSearch;
  /** Applies a search at once (with JavaScript); without it the form is sent as a GET. */
  onChange: (next: ListSearch) => void;
  hydrated: boolean;
}

/** How long typing pauses before words or rents apply (each keystroke would be a render). */
const TYPING_PAUSE_MS = 400;

/**
 * The list's controls: the spec's two (docs/behaviour.md §4, their labels and options exactly)
 * and the search of issue 20. A plain GET form without JavaScript ('Apply filters'); with it,
 * each change applies at once and the button goes.
 */
export function ListFilterBar({ kind, search, onChange, hydrated }: ListFilterBarProps) {
  const id = useId();
  const properties = kind.hasOffer;
  // Typed text shows at once and applies after a pause, together with anything else typed; a
  // new search from outside (another control, a link, a live change) replaces it only where it
  // says something else than what is typed.
  const [typed, setTyped] = useState(() => typedOf(search));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Typed text waiting for the pause: it wins over a search arriving meanwhile. */
  const pending = useRef(false);
  const latest = useRef({ search, typed });
  latest.current = { search, typed };
  useEffect(() => {
    if (pending.current || sameAsTyped(latest.current.typed, search)) return;
    setTyped(typedOf(search));
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);
  /** Applies a search with whatever is typed but not yet applied. */
  const apply = (next: ListSearch) => {
    clearTimeout(timer.current);
    pending.current = false;
    onChange(withTyped(next, latest.current.typed));
  };

  const type = (key: keyof Typed, value: string) => {
    const next = { ...latest.current.typed, [key]: value };
    latest.current.typed = next;
    setTyped(next);
    clearTimeout(timer.current);
    pending.current = true;
    timer.current = setTimeout(() => {
      pending.current = false;
      const { search: now, typed: text } = latest.current;
      if (!sameAsTyped(text, now)) onChange(withTyped(now, text));
    }, TYPING_PAUSE_MS);
  };
  const select = (
    name: string,
    label: string,
    value: string,
    options: readonly (readonly [string, string])[],
    change: (v: string) => ListSearch,
  ) => (
    <div className={name === "sort" ? "filter filter-two" : "filter"}>
      <label className="form-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <select
        id={`${id}-${name}`}
        name={name}
        className="form-select"
        value={value}
        onChange={(e) => apply(change(e.currentTarget.value))}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const count = (n: number | null) => (n === null ? "" : String(n));
  const sorts = SORTS[kind.collection] as readonly SortKey[];

  return (
    <form
      className="filters"
      method="get"
      action={kind.route}
      onSubmit={(e) => {
        // Enter in a text box applies what is typed now (without JavaScript the form is sent).
        e.preventDefault();
        apply(search);
      }}
    >
      {properties ? (
        <div className="form-check">
          <input
            id={`${id}-available`}
            type="checkbox"
            name="available"
            value="true"
            checked={search.availableOnly}
            onChange={(e) => apply({ ...search, availableOnly: e.currentTarget.checked })}
          />
          <label htmlFor={`${id}-available`}>Only show available properties</label>
        </div>
      ) : null}
      {textInput(id, "q", "Search", typed.q, type, "search")}
      {select(
        "type",
        kind.typeFilterLabel,
        search.propertyType,
        [
          ["", "All"],
          // The spec's order: All, Residential, Vacation, Commercial.
          ...[PROPERTY_TYPES[0], PROPERTY_TYPES[2], PROPERTY_TYPES[1]].map((t) => [t, t] as const),
        ],
        (v) => ({ ...search, propertyType: v }),
      )}
      {select(
        "beds",
        "Bedrooms",
        count(search.beds),
        [["", "Any"], ...BEDS_CHOICES.map((n) => [String(n), `${n}+`] as const)],
        (v) => ({ ...search, beds: v ? Number(v) : null }),
      )}
      {properties
        ? select(
            "baths",
            "Bathrooms",
            count(search.baths),
            [["", "Any"], ...BATHS_CHOICES.map((n) => [String(n), `${n}+`] as const)],
            (v) => ({ ...search, baths: v ? Number(v) : null }),
          )
        : null}
      {properties ? (
        <>
          {textInput(id, "minRent", "Min rent", typed.minRent, type, "number")}
          {textInput(id, "maxRent", "Max rent", typed.maxRent, type, "number")}
          {select(
            "pets",
            "Pets",
            search.pets ?? "",
            [["", "Any"], ...Object.entries(PET_CHOICES)],
            (v) => ({ ...search, pets: v ? (v as PetChoice) : null }),
          )}
          <div className="filter filter-two">
            <label className="form-label" htmlFor={`${id}-availableBy`}>
              Available by
            </label>
            <input
              id={`${id}-availableBy`}
              name="availableBy"
              type="date"
              className="form-control"
              value={search.availableBy ?? ""}
              onChange={(e) => {
                const v = e.currentTarget.value;
                if (v === "" || isIsoDate(v)) {
                  apply({ ...search, availableBy: v || null });
                }
              }}
            />
          </div>
        </>
      ) : null}
      {select(
        "sort",
        "Sort",
        search.sort === "newest" ? "" : search.sort,
        sorts.map((s) => [s === "newest" ? "" : s, SORT_LABELS[s]] as const),
        (v) => ({ ...search, sort: (v || "newest") as SortKey }),
      )}
      {hydrated ? null : (
        <button type="submit" className="btn btn-primary" formAction={kind.route}>
          Apply filters
        </button>
      )}
    </form>
  );
}

interface Typed {
  q: string;
  minRent: string;
  maxRent: string;
}

function typedOf(search: ListSearch): Typed {
  return {
    q: search.q,
    minRent: search.minRent === null ? "" : String(search.minRent),
    maxRent: search.maxRent === null ? "" : String(search.maxRent),
  };
}

function withTyped(search: ListSearch, typed: Typed): ListSearch {
  return {
    ...search,
    q: typed.q.replace(/\s+/g, " ").trim(),
    minRent: typedRent(typed.minRent),
    maxRent: typedRent(typed.maxRent),
  };
}

function sameAsTyped(typed: Typed, search: ListSearch): boolean {
  const t = withTyped(search, typed);
  return t.q === search.q && t.minRent === search.minRent && t.maxRent === search.maxRent;
}

/** A rent typed in 'Min rent' or 'Max rent': whole dollars, or none (blank, negative, not a number). */
function typedRent(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() === "" || !Number.isFinite(n) || n < 0 ? null : Math.round(n);
}

function textInput(
  id: string,
  name: keyof Typed,
  label: string,
  value: string,
  type: (key: keyof Typed, value: string) => void,
  inputType: "search" | "number",
) {
  return (
    <div className={name === "q" ? "filter filter-wide" : "filter"}>
      <label className="form-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={inputType}
        className="form-control"
        value={value}
        {...(inputType === "number" ? { min: 0, step: 50, inputMode: "numeric" as const } : {})}
        {...(name === "q" ? { maxLength: 200, placeholder: "Address, city, ZIP or words" } : {})}
        onChange={(e) => type(name, e.currentTarget.value)}
      />
    </div>
  );
}
