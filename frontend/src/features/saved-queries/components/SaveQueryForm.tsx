import { useId, useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import type { SavedQuery } from "../api";
import { validateSavedQuery } from "../filterSavedQueries";
import { useCreateSavedQuery, useUpdateSavedQuery } from "../hooks/useSavedQueries";

export interface SaveQueryFormProps {
  workspaceId: string;
  query: string;
  /** The saved query the editor was opened from, offered as "save changes". */
  current?: SavedQuery;
  onSaved: (saved: SavedQuery) => void;
  onCancel: () => void;
}

/** Name and describe the query in the editor, then save it as new (or update the one it came from). */
export function SaveQueryForm({ workspaceId, query, current, onSaved, onCancel }: SaveQueryFormProps): ReactElement {
  const create = useCreateSavedQuery(workspaceId);
  const update = useUpdateSavedQuery(workspaceId);
  const [name, setName] = useState(current ? `${current.name} (copy)` : "");
  const [description, setDescription] = useState(current?.description ?? "");
  const [touched, setTouched] = useState(false);
  const errors = touched ? validateSavedQuery({ name, description }, query) : {};
  const descId = useId();
  const error = create.error ?? update.error;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    const errs = validateSavedQuery({ name, description }, query);
    if (errs.name || errs.description || errs.query) return;
    create.mutate({ name: name.trim(), description, query }, { onSuccess: onSaved });
  };

  return (
    <form className="saved-popover" onSubmit={onSubmit} noValidate aria-label="Save query">
      <strong>Save this query</strong>
      <pre aria-label="Query to save">{query}</pre>
      {errors.query ? <Alert>{errors.query}</Alert> : null}
      {error ? <Alert>{toUserMessage(error)}</Alert> : null}
      {current && current.query !== query ? (
        <div className="row">
          <Button
            disabled={update.isPending}
            onClick={() => update.mutate({ id: current.id, changes: { query } }, { onSuccess: onSaved })}
          >
            Save changes to “{current.name}”
          </Button>
          <span className="muted small">or save as a new query below</span>
        </div>
      ) : null}
      <TextField
        label="Name"
        name="saved_query_name"
        autoFocus
        maxLength={200}
        value={name}
        error={errors.name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="field">
        <label htmlFor={descId}>Description</label>
        <textarea
          id={descId}
          name="saved_query_description"
          maxLength={2000}
          placeholder="What it shows, when to use it (optional)"
          value={description}
          aria-invalid={errors.description ? true : undefined}
          onChange={(e) => setDescription(e.target.value)}
        />
        {errors.description ? <span className="field-error">{errors.description}</span> : null}
      </div>
      <div className="row">
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Save as new query
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
