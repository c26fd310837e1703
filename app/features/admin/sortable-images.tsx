import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useId } from "react";

type Id = string | number;

export interface SortableImage {
  /** Stable identity: the stored URL, or a local id for a file not yet uploaded. */
  key: string;
  src: string;
  /** Its caption (docs/behaviour.md §20): travels with the photo when it moves. */
  caption?: string;
}

interface SortableImagesProps {
  items: SortableImage[];
  onReorder: (next: SortableImage[]) => void;
  onRemove: (item: SortableImage) => void;
  /** With it, each photo has a 'Caption' field. */
  onCaption?: (item: SortableImage, caption: string) => void;
  disabled?: boolean;
}

/** Photos in order; drag with a mouse or touch, or focus a handle and use Space and the arrows. */
export function SortableImages({
  items,
  onReorder,
  onRemove,
  onCaption,
  disabled,
}: SortableImagesProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((i) => i.key === active.id);
    const to = items.findIndex((i) => i.key === over.id);
    if (from >= 0 && to >= 0) onReorder(arrayMove(items, from, to));
  }
  // Screen readers hear positions, not the library's ids (random keys or long URLs).
  const position = (id: Id) => items.findIndex((i) => i.key === id) + 1;
  const of = items.length;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up photo ${position(active.id)} of ${of}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Photo ${position(active.id)} is over position ${position(over.id)} of ${of}.`
        : `Photo ${position(active.id)} is not over a position.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Photo ${position(active.id)} was dropped at position ${position(over.id)} of ${of}.`
        : `Photo ${position(active.id)} was dropped where it was.`,
    onDragCancel: ({ active }) =>
      `Moving was cancelled. Photo ${position(active.id)} stays where it was.`,
  };
  if (items.length === 0) return null;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements }}
    >
      <SortableContext items={items.map((i) => i.key)} strategy={rectSortingStrategy}>
        <ol className="sortable-images" aria-label="Photos, first is the thumbnail">
          {items.map((item, index) => (
            <SortableTile
              key={item.key}
              item={item}
              index={index}
              onRemove={onRemove}
              onCaption={onCaption}
              disabled={disabled}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableTile({
  item,
  index,
  onRemove,
  onCaption,
  disabled,
}: {
  item: SortableImage;
  index: number;
  onRemove: (item: SortableImage) => void;
  onCaption?: (item: SortableImage, caption: string) => void;
  disabled?: boolean;
}) {
  const captionId = useId();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.key,
    disabled,
  });
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? "sortable-tile dragging" : "sortable-tile"}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="sortable-image"
    >
      <button
        type="button"
        className="drag-handle"
        aria-label={`Photo ${index + 1}${index === 0 ? " (thumbnail)" : ""}: drag to reorder`}
        {...attributes}
        {...listeners}
      >
        <img src={item.src} alt="" width={160} height={107} draggable={false} />
        {index === 0 ? <span className="thumb-badge">Thumbnail</span> : null}
      </button>
      <button
        type="button"
        className="btn btn-outline btn-sm"
        onClick={() => onRemove(item)}
        disabled={disabled}
      >
        Remove
      </button>
      {onCaption ? (
        <div className="tile-caption">
          <label className="form-label" htmlFor={captionId}>
            Caption
          </label>
          <input
            id={captionId}
            className="form-control"
            value={item.caption ?? ""}
            maxLength={500}
            disabled={disabled}
            onChange={(e) => onCaption(item, e.currentTarget.value)}
          />
        </div>
      ) : null}
    </li>
  );
}
