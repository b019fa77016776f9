import { useId, type HTMLAttributes, type Key, type ReactElement, type ReactNode } from "react";
import { toUserMessage } from "@/lib/apiError";
import { Alert } from "./Alert";
import { Spinner } from "./Spinner";

/** One column: its header and how a row fills its cell. */
export interface DataTableColumn<T> {
  /** Stable among the table's columns; React's key for the header and the cells. */
  id: string;
  header: ReactNode;
  /** The header is for screen readers only, e.g. "Actions" above a column of buttons. */
  headerHidden?: boolean;
  headerClassName?: string;
  cell: (row: T, index: number) => ReactNode;
  /** Right-aligned tabular figures, header included (the `num` class). */
  numeric?: boolean;
  /** The cells are `<th scope="row">`: this column names its row (the row's accessible name). */
  rowHeader?: boolean;
  /** Class of each body cell, fixed or per row. */
  className?: string | ((row: T) => string | undefined);
  /** Tooltip of each body cell. */
  title?: (row: T) => string | undefined;
}

/** What a row may carry besides its cells. */
export type DataTableRowProps = Pick<HTMLAttributes<HTMLTableRowElement>, "className" | "aria-current" | "title">;

export interface DataTableProps<T> {
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /**
   * Names the table (its `<caption>`). For screen readers only unless `captionVisible`: the
   * pages around tables usually have a heading that says it already. Say more than that
   * heading ("Members and their roles" under "Members"): the scrolling box is a region named
   * by the caption, and two regions of the same name cannot be told apart.
   */
  caption: ReactNode;
  captionVisible?: boolean;
  /** Classes besides `data-table`. */
  className?: string;
  testId?: string;
  /** `data-testid` of every body row. */
  rowTestId?: string;
  rowProps?: (row: T, index: number) => DataTableRowProps;
  /** While true, a spinner named `loadingLabel` stands in for the table. */
  loading?: boolean;
  loadingLabel?: string;
  /** When set (a query's `error`), an alert titled `errorTitle` stands in for the table. */
  error?: Error | null;
  errorTitle?: string;
  /** Stands in for the table when there are no rows, usually an `<EmptyState>`; without it the header shows alone. */
  empty?: ReactNode;
}

const join = (...classes: (string | false | undefined)[]): string | undefined => classes.filter(Boolean).join(" ") || undefined;

/**
 * The app's table of records (`data-table`): typed columns, a caption, and the states a list
 * goes through — loading, failed, empty — in the same form on every page. Result tables that
 * render thousands of cells (Explore, the table panel) are built by hand for speed.
 *
 * A table wider than its card scrolls sideways inside it (`data-table-scroll`), never the page:
 * the scrolling box is a region named by the caption that takes keyboard focus, so the arrow
 * keys scroll it without a mouse.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  captionVisible = false,
  className,
  testId,
  rowTestId,
  rowProps,
  loading = false,
  loadingLabel,
  error,
  errorTitle,
  empty,
}: DataTableProps<T>): ReactElement {
  const captionId = useId();
  if (loading) return <Spinner label={loadingLabel} />;
  if (error) return <Alert title={errorTitle}>{toUserMessage(error)}</Alert>;
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    // Focusable so the keyboard can scroll a table wider than its card.
    <div className="data-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className={join("data-table", className)} data-testid={testId}>
        <caption id={captionId} className={captionVisible ? undefined : "sr-only"}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={join(c.numeric && "num", c.headerClassName)}>
                {c.headerHidden ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row, i)}>
              {columns.map((c) => {
                const props = {
                  className: join(c.numeric && "num", typeof c.className === "function" ? c.className(row) : c.className),
                  title: c.title?.(row),
                };
                return c.rowHeader ? (
                  <th key={c.id} scope="row" {...props}>
                    {c.cell(row, i)}
                  </th>
                ) : (
                  <td key={c.id} {...props}>
                    {c.cell(row, i)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
