import { useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { useCreateWorkspace } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import "../workspaces.css";

export interface CreateWorkspaceFormProps {
  onCreated?: () => void;
  /** Shown as a Cancel button beside Create (in a dialog); without it the form stands alone. */
  onCancel?: () => void;
}

/** Names and creates a workspace, then opens its getting-started page. */
export function CreateWorkspaceForm({ onCreated, onCancel }: CreateWorkspaceFormProps): ReactElement {
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const apiFieldError = fieldErrors(create.error).name;
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (!name.trim()) {
      setError("Give the workspace a name.");
      return;
    }
    setError(undefined);
    create.mutate(name.trim(), {
      onSuccess: (ws) => {
        onCreated?.();
        navigate(`/w/${ws.id}/get-started`);
      },
    });
  };
  const submit = (
    <Button type="submit" variant="primary" disabled={create.isPending}>
      Create workspace
    </Button>
  );
  return (
    <form onSubmit={onSubmit} className="stack" aria-label="Create a workspace" noValidate>
      {create.isError && !apiFieldError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
      <TextField
        label="Workspace name"
        name="workspace_name"
        value={name}
        error={error ?? apiFieldError}
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
          if (create.isError) create.reset();
        }}
      />
      {onCancel ? (
        <div className="form-actions">
          <Button onClick={onCancel}>Cancel</Button>
          {submit}
        </div>
      ) : (
        submit
      )}
    </form>
  );
}
