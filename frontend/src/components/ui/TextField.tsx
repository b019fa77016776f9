import { useId, type InputHTMLAttributes, type ReactElement } from "react";

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input; the error is tied to the input for screen readers. */
export function TextField({ label, error, hint, id, ...rest }: TextFieldProps): ReactElement {
  const autoId = useId();
  const inputId = id ?? autoId;
  const msgId = `${inputId}-msg`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? msgId : undefined}
        {...rest}
      />
      {error ? (
        <span id={msgId} className="field-error">
          {error}
        </span>
      ) : hint ? (
        <span id={msgId} className="field-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
