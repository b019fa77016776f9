import { useCallback, useEffect, useRef, useState, type ReactElement } from "react";
import { ConfirmDialog, type ConfirmOptions } from "./ConfirmDialog";

export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

interface Pending {
  id: number;
  options: ConfirmOptions;
  resolve: (answer: boolean) => void;
}

/**
 * Asks before doing something that cannot be undone:
 *
 * ```tsx
 * const [confirm, confirmDialog] = useConfirm();
 * const onDelete = async () => {
 *   if (await confirm({ title: `Delete "${d.title}"?`, confirmLabel: "Delete" })) remove.mutate(d.id);
 * };
 * return <>{…}{confirmDialog}</>;
 * ```
 *
 * `confirm` resolves true when the user confirms, false when they cancel or press Escape, when
 * another question replaces this one, or when the component goes away. Render `confirmDialog`
 * anywhere in the component; it is null while nothing is asked.
 */
export function useConfirm(): [Confirm, ReactElement | null] {
  const [pending, setPending] = useState<Pending | null>(null);
  const current = useRef<Pending | null>(null);
  const asked = useRef(0);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        current.current?.resolve(false);
        asked.current += 1;
        current.current = { id: asked.current, options, resolve };
        setPending(current.current);
      }),
    [],
  );

  const answer = useCallback((value: boolean): void => {
    const question = current.current;
    current.current = null;
    setPending(null);
    question?.resolve(value);
  }, []);

  useEffect(
    () => () => {
      current.current?.resolve(false);
      current.current = null;
    },
    [],
  );

  const dialog = pending ? (
    <ConfirmDialog
      // A new question is a new dialog: focus is placed again.
      key={pending.id}
      {...pending.options}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    />
  ) : null;
  return [confirm, dialog];
}
