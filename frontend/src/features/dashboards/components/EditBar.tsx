import type { ReactElement } from "react";
import { Button } from "@/components/ui/Button";

export interface EditBarProps {
  /** Edit mode: Add panel, Add row and Settings are offered. */
  editing: boolean;
  dirty: boolean;
  saving: boolean;
  /** The version note saved with the next version. */
  note: string;
  onNoteChange: (note: string) => void;
  onAddPanel: () => void;
  onAddRow: () => void;
  /** Whether the settings (variables, defaults) are open under the bar. */
  settingsOpen: boolean;
  onToggleSettings: () => void;
  onDiscard: () => void;
  onSave: () => void;
}

/** The toolbar of a dashboard being edited (or with unsaved changes): add, settings, note, Discard, Save. */
export function EditBar({
  editing,
  dirty,
  saving,
  note,
  onNoteChange,
  onAddPanel,
  onAddRow,
  settingsOpen,
  onToggleSettings,
  onDiscard,
  onSave,
}: EditBarProps): ReactElement {
  return (
    <div className="edit-bar card" role="toolbar" aria-label="Dashboard editing">
      {editing ? (
        <>
          <Button onClick={onAddPanel} data-testid="add-panel">
            Add panel
          </Button>
          <Button onClick={onAddRow} data-testid="add-row">
            Add row
          </Button>
          <Button onClick={onToggleSettings} aria-expanded={settingsOpen} data-testid="dashboard-settings-toggle">
            Settings
          </Button>
        </>
      ) : null}
      <span className="muted small grow">
        {editing ? "Drag a panel by its header, resize it from its corner; Ctrl+S saves." : "You have unsaved changes."}
      </span>
      <input
        aria-label="Version note"
        placeholder="Version note (optional)"
        value={note}
        maxLength={500}
        onChange={(e) => onNoteChange(e.target.value)}
      />
      <Button disabled={!dirty || saving} onClick={onDiscard}>
        Discard
      </Button>
      <Button variant="primary" disabled={!dirty || saving} onClick={onSave} data-testid="save-dashboard">
        Save
      </Button>
    </div>
  );
}
