import type { ReactNode } from "react";

interface ListEditorProps<T> {
  /** The list's name: the fieldset's legend ('Services Provided', 'Contacts'). */
  legend: string;
  /** One entry's name for its own group and buttons ('Service', 'Contact'). */
  noun: string;
  items: T[];
  onChange: (next: T[]) => void;
  empty: () => T;
  renderItem: (item: T, set: (next: T) => void, index: number) => ReactNode;
  disabled?: boolean;
}

/**
 * A list staff can add to, remove from and reorder with plain buttons (keyboard and screen
 * readers need nothing more; docs/behaviour.md §18).
 */
export function ListEditor<T>({
  legend,
  noun,
  items,
  onChange,
  empty,
  renderItem,
  disabled,
}: ListEditorProps<T>) {
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item as T);
    onChange(next);
  };
  return (
    <fieldset className="list-editor">
      <legend className="form-label">{legend}</legend>
      <ol className="list-editor-items">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no identity of their own
          <li key={i}>
            <fieldset data-testid="list-entry">
              <legend>{`${noun} ${i + 1}`}</legend>
              {renderItem(
                item,
                (value) => onChange(items.map((old, j) => (j === i ? value : old))),
                i,
              )}
              <div className="form-actions">
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-label={`Move ${noun.toLowerCase()} ${i + 1} up`}
                  disabled={disabled || i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-label={`Move ${noun.toLowerCase()} ${i + 1} down`}
                  disabled={disabled || i === items.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-label={`Remove ${noun.toLowerCase()} ${i + 1}`}
                  disabled={disabled}
                  onClick={() => onChange(items.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-outline"
        disabled={disabled}
        onClick={() => onChange([...items, empty()])}
      >
        {`Add ${noun.toLowerCase()}`}
      </button>
    </fieldset>
  );
}
