import type { ReactElement } from "react";
import { AddToDashboard } from "@/features/dashboards/components/AddToDashboard";
import { ExplorePage } from "@/features/explore/ExplorePage";
import { SavedQueries } from "@/features/saved-queries/SavedQueries";

/**
 * Explore with what other features add to it: saved queries beside the history, and Add to
 * dashboard in the result's header. Features never import each other; a page that shows
 * another feature's part takes it as a prop, and its route passes it in here.
 */
export function ExploreRoute(): ReactElement {
  return (
    <ExplorePage
      queryTools={(tools) => <SavedQueries {...tools} />}
      resultActions={(result) => <AddToDashboard {...result} />}
    />
  );
}
