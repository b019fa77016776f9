import type { ReactElement } from "react";
import { Link, useLocation, useParams } from "react-router";
import { useDocumentTitle } from "@/lib/useDocumentTitle";

/**
 * An address that is no page of Vigil (a mistyped or outdated link): says so and offers the
 * way back, instead of quietly showing another page. Inside a workspace the navigation stays
 * and the way back is the workspace's Explore.
 */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }): ReactElement {
  const { pathname } = useLocation();
  const { workspaceId } = useParams();
  const home = workspaceId ? `/w/${workspaceId}/explore` : "/";
  useDocumentTitle(["Page not found"]);
  const body = (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>. The link may be mistyped, or the page may have moved.
      </p>
      <p>
        <Link to={home}>Go to Explore</Link>
      </p>
    </>
  );
  return standalone ? <main className="center-page">{body}</main> : <section className="not-found">{body}</section>;
}
