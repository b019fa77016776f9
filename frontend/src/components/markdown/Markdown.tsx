import type { ReactElement } from "react";
import { useMemo } from "react";
import { renderMarkdown } from "./markdown";
import "./markdown.css";

export interface MarkdownProps {
  text: string;
  /** Dashboard variables to fill in (`$host`), as text that can never become markup. */
  variables?: Record<string, readonly string[]>;
  className?: string;
}

/** Sanitised Markdown (`renderMarkdown`); loaded on its own, by the pages that show some. */
export function Markdown({ text, variables, className }: MarkdownProps): ReactElement {
  const html = useMemo(() => renderMarkdown(text, variables), [text, variables]);
  return <div className={className ? `markdown ${className}` : "markdown"} dangerouslySetInnerHTML={{ __html: html }} />;
}
