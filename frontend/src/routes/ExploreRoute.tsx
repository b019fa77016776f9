import type { ReactElement } from "react";
import { CreateMonitorLink } from "@/features/alerting/components/CreateMonitorLink";
import { AddToDashboard } from "@/features/dashboards/components/AddToDashboard";
import { ExplorePage } from "@/features/explore/ExplorePage";
import { SavedQueries } from "@/features/saved-queries/SavedQueries";

/**
 * Explore with what other features add to it: saved queries beside the history; Add to
 * dashboard and Create monitor (from the first query that ran) in the result's header.
 * Features never import each other; a page that shows another feature's part takes it as a
 * prop, and its route passes it in here.
 */
export function ExploreRoute(): ReactElement {
  return (
    <ExplorePage
      queryTools={(tools) => <SavedQueries {...tools} />}
      resultActions={({ ran, ...result }) => (
        <>
          <AddToDashboard {...result} />
          {ran.length > 0 ? (
            <CreateMonitorLink workspaceId={result.workspaceId} query={ran[0].query} language={ran[0].language} />
          ) : null}
        </>
      )}
    />
  );
}
