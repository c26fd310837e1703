import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
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
  searchFromParams,
} from "~/domain/listing-search";

/**
 * What the server's filter bar held when its code came (filter-bar-on-demand.tsx): its values,
 * the control that was used (or a submit), and where the focus is: read as this bar replaces
 * the server's, as the visitor may have moved on to another control since the values were read.
 */
export interface FilterStart {
  values: [string, string][];
  used: string | null;
  focus: () => { name: string; start: number | null; end: number | null } | null;
}

interface ListFilterBarProps {
  kind: ListingKind;
  search: ListSearch;
  /** Applies a search at once (with JavaScript); without it the form is sent as a GET. */
  onChange: (next: ListSearch) => void;
  hydrated: boolean;
  start?: FilterStart;
}

/** How long typing pauses before words or rents apply (each keystroke would be a render). */
const TYPING_PAUSE_MS = 400;

/**
 * The list's controls: the spec's two (docs/behaviour.md §4, their labels and options exactly)
 * and the search (docs/decisions/0060-list-search.md). A plain GET form without JavaScript ('Apply
 * filters'); with it, each change applies at once and the button goes.
 */
export function ListFilterBar({ kind, search, onChange, hydrated, start }: ListFilterBarProps) {
  const id = useId();
  const properties = kind.hasOffer;
  // Typed text shows at once and applies after a pause, together with anything else typed; a
  // new search from outside (another control, a link, a live change) replaces it only where it
  // says something else than what is typed.
  const fromStart = start
    ? searchFromParams(kind.collection, new URLSearchParams(start.values))
    : null;
  const [typed, setTyped] = useState(() =>
    start ? typedOfValues(new Map(start.values)) : typedOf(search),
  );
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Typed text waiting for the pause: it wins over a search arriving meanwhile. */
  const pending = useRef(false);
  const latest = useRef({ search, typed });
  latest.current = { search, typed };
  const form = useRef<HTMLFormElement>(null);
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
  // The server's bar was used before this code came: the same control takes the focus back and
  // what was done applies, as it would have (typed text after the pause).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this bar replaces the server's
  useLayoutEffect(() => {
    if (!start || !fromStart) return;
    const focus = start.focus();
    const control = focus ? form.current?.elements.namedItem(focus.name) : null;
    if (focus && control instanceof HTMLElement) {
      control.focus();
      try {
        if (control instanceof HTMLInputElement && focus.start !== null)
          control.setSelectionRange(focus.start, focus.end);
      } catch {
        // number and date inputs have no selection
      }
    }
    // Only text typed: it applies after the pause; anything else chosen applies now, with it.
    const used = start.used as keyof Typed | null;
    const untyped = (s: ListSearch) => JSON.stringify({ ...s, ...withTyped(s, EMPTY_TYPED) });
    if (
      (used === "q" || used === "minRent" || used === "maxRent") &&
      untyped(fromStart) === untyped(search)
    )
      type(used, typed[used]);
    else apply(fromStart);
  }, []);
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
      ref={form}
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

const EMPTY_TYPED: Typed = { q: "", minRent: "", maxRent: "" };

function typedOfValues(values: Map<string, string>): Typed {
  return {
    q: values.get("q") ?? "",
    minRent: values.get("minRent") ?? "",
    maxRent: values.get("maxRent") ?? "",
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
