import type { ReactElement } from "react";
import { useMemo } from "react";
import { renderMarkdown } from "./markdown";
import "./markdown.css";

export interface MarkdownProps {
  text: string;
  className?: string;
}

/** Sanitised Markdown (`renderMarkdown`); loaded on its own, by the pages that show some. */
export function Markdown({ text, className }: MarkdownProps): ReactElement {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={className ? `markdown ${className}` : "markdown"} dangerouslySetInnerHTML={{ __html: html }} />;
}
