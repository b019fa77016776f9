import { useRef, type KeyboardEvent, type ReactElement } from "react";

export interface RadioOption<T extends string> {
  value: T;
  label: string;
}

export interface RadioGroupProps<T extends string> {
  /** What is being chosen ("Visualisation"), for screen readers. */
  label: string;
  /** The choices, in order; any number, each drawn as one segment. */
  options: readonly RadioOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Extra classes on the group, e.g. `wrap` to let the segments wrap onto more lines. */
  className?: string;
  testId?: string;
}

/** The key → where it moves, from the index of the checked choice among `count`. */
function moveFor(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
      return (index + 1) % count;
    case "ArrowLeft":
    case "ArrowUp":
      return (index - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}

/**
 * One choice out of a few, drawn as segmented buttons and working as a WAI-ARIA radio group:
 * Tab reaches the group once (on the checked choice, or the first when none is), the arrow
 * keys move to the next or previous choice and select it (wrapping at the ends), Home and
 * End to the first and last; Space or a click selects the one in focus.
 */
export function RadioGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
  testId,
}: RadioGroupProps<T>): ReactElement {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const checked = options.findIndex((o) => o.value === value);
  const tabStop = checked >= 0 ? checked : 0;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || options.length === 0) return;
    const from = options.findIndex((_, i) => buttons.current[i] === e.target);
    const to = moveFor(e.key, from >= 0 ? from : tabStop, options.length);
    if (to === undefined) return;
    e.preventDefault();
    buttons.current[to]?.focus();
    if (to !== checked) onChange(options[to].value);
  };

  return (
    <div
      className={["segmented", className].filter(Boolean).join(" ")}
      role="radiogroup"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      {options.map((o, i) => (
        <button
          key={o.value}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          role="radio"
          aria-checked={i === checked}
          tabIndex={i === tabStop ? 0 : -1}
          className={i === checked ? "seg active" : "seg"}
          onClick={() => {
            if (i !== checked) onChange(o.value);
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
