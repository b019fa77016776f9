import type { ReactElement, ReactNode } from "react";

export interface AuthCardProps {
  title: string;
  titleId?: string;
  children: ReactNode;
}

/** The card the pages around signing in stand on: the brand, a heading, what the page asks. */
export function AuthCard({ title, titleId = "auth-title", children }: AuthCardProps): ReactElement {
  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby={titleId}>
        <div className="brand brand-lg" aria-hidden="true">
          ◉ Vigil
        </div>
        <h1 id={titleId}>{title}</h1>
        {children}
      </section>
    </main>
  );
}
