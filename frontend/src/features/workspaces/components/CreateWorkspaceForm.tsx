import { useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import { useCreateWorkspace } from "../hooks/useWorkspaces";

/** Names and creates a workspace, then opens its getting-started page. */
export function CreateWorkspaceForm({ onCreated }: { onCreated?: () => void }): ReactElement {
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const create = useCreateWorkspace();
  const navigate = useNavigate();
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
  return (
    <form onSubmit={onSubmit} className="stack" noValidate>
      {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
      <TextField label="Workspace name" name="workspace_name" value={name} error={error} onChange={(e) => setName(e.target.value)} />
      <Button type="submit" variant="primary" disabled={create.isPending}>
        Create workspace
      </Button>
    </form>
  );
}
