import type { ReactElement } from "react";
import { SHORTCUTS } from "@/lib/shortcuts";
import { Button } from "./Button";
import { Dialog } from "./Dialog";

const KEY_LABELS: Record<string, string> = { left: "←", right: "→", up: "↑", down: "↓" };

/** `t left` → <kbd>t</kbd> then <kbd>←</kbd>. */
function Keys({ keys }: { keys: string }): ReactElement {
  const parts = keys.split(" ");
  return (
    <>
      <span aria-hidden="true">
        {parts.map((k, i) => (
          <span key={i}>
            {i > 0 ? " then " : null}
            <kbd>{KEY_LABELS[k] ?? k}</kbd>
          </span>
        ))}
      </span>
      <span className="sr-only">{parts.map((k) => (KEY_LABELS[k] ? `${k} arrow` : k)).join(" then ")}</span>
    </>
  );
}

/** Every keyboard shortcut, by where it works (`?` opens it). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }): ReactElement {
  return (
    <Dialog
      title="Keyboard shortcuts"
      description="Press the keys one after the other, outside text fields."
      onClose={onClose}
      testId="shortcuts-dialog"
      className="dialog-wide"
    >
      <div className="shortcuts">
        {SHORTCUTS.map((group) => (
          <table key={group.section} className="data-table shortcuts-table">
            <caption>{group.section}</caption>
            <tbody>
              {group.items.map((s) => (
                <tr key={s.keys}>
                  <th scope="row">
                    <Keys keys={s.keys} />
                  </th>
                  <td>{s.does}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
      <div className="confirm-actions">
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
