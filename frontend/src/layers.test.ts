import { describe, expect, it } from "vitest";

/*
 * Imports run one way: routes → features → shared → client (frontend/README.md, "Layers").
 *
 *   main.tsx     mounts the router
 *   routes/      the URL map; composes features (a page that shows another feature's part
 *                takes it as a prop, and its route passes it in)
 *   features/x/  one feature: its pages, components, hooks and pure modules
 *   components/  shared parts of pages: ui, charts, panels, query editor, time pickers …
 *   api/         shared server state: the resources several features read
 *   lib/         shared code without React components or server calls of its own
 *   client/      generated from the backend's OpenAPI
 *
 * A feature imports only itself and the shared layers, never another feature or a route;
 * shared code never imports a feature or a route; within the shared layers, components may
 * use api and lib, api may use lib, lib uses neither. Tests follow the same rule (a journey
 * across features is tested beside the routes).
 */

// every source file under src/ but the generated client, by its path under src/
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(["./**/*.{ts,tsx}", "!./client/**"], { query: "?raw", import: "default", eager: true }),
  ).map(([path, source]) => [path.slice(2), source]),
);

type Layer = "main" | "routes" | "feature" | "components" | "api" | "lib" | "client" | "test";

interface Place {
  layer: Layer;
  /** The feature's folder name, for a feature. */
  feature?: string;
}

/** Which layer a path under src/ (`features/explore/ExplorePage.tsx`) belongs to. */
function placeOf(path: string): Place {
  const [top, second] = path.split("/");
  if (top === "features") return { layer: "feature", feature: second };
  if (top === "routes" || top === "components" || top === "api" || top === "lib" || top === "client" || top === "test") {
    return { layer: top };
  }
  return { layer: "main" };
}

/** The layers each layer may import, besides itself (and, for a feature, only its own folder). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  main: ["routes", "feature", "components", "api", "lib", "client", "test"],
  routes: ["feature", "components", "api", "lib", "client", "test"],
  feature: ["components", "api", "lib", "client", "test"],
  components: ["api", "lib", "client", "test"],
  api: ["lib", "client", "test"],
  lib: ["client", "test"],
  client: [],
  test: ["lib", "client"],
};

/** Why `from` may not import `to` (both paths under src/), or undefined when it may. */
function refusal(from: string, to: string): string | undefined {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a.layer === "feature" && b.layer === "feature") {
    return a.feature === b.feature ? undefined : `the feature "${a.feature}" imports the feature "${b.feature}"`;
  }
  if (a.layer === b.layer || MAY_IMPORT[a.layer].includes(b.layer)) return undefined;
  return `${a.layer === "feature" ? `the feature "${a.feature}"` : a.layer} imports ${b.layer === "feature" ? `the feature "${b.feature}"` : b.layer}`;
}

// `from "x"`, `import "x"`, `import("x")` and a mocked module: every way a module names another
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.(?:mock|doMock|importActual)\(\s*)(["'])([^"']+)\1/g;

/** `a/b/../c/./d` → `a/c/d`. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** The modules under src/ that `path`'s source names, as paths under src/ (packages are left out). */
function importsOf(path: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(SPECIFIER)) {
    const spec = m[2].split("?")[0];
    if (spec.startsWith("@/")) out.push(spec.slice(2));
    else if (spec.startsWith(".")) out.push(normalize(`${path.slice(0, path.lastIndexOf("/") + 1)}${spec}`));
  }
  return out;
}

describe("import layers", () => {
  it("refuses a feature importing another feature or a route, and shared code importing either", () => {
    expect(refusal("features/explore/ExplorePage.tsx", "features/explore/queryEdits")).toBeUndefined();
    expect(refusal("features/explore/ExplorePage.tsx", "components/panels/ResultTable")).toBeUndefined();
    expect(refusal("features/explore/ExplorePage.tsx", "api/useWorkspaces")).toBeUndefined();
    expect(refusal("features/explore/ExplorePage.tsx", "features/dashboards/addPanel")).toBe(
      'the feature "explore" imports the feature "dashboards"',
    );
    expect(refusal("features/dashboards/DashboardPage.tsx", "routes/router")).toBe('the feature "dashboards" imports routes');
    expect(refusal("components/panels/PanelCard.tsx", "features/dashboards/api")).toBe(
      'components imports the feature "dashboards"',
    );
    expect(refusal("lib/time.ts", "components/ui/Button")).toBe("lib imports components");
    expect(refusal("api/query.ts", "components/ui/Button")).toBe("api imports components");
    expect(refusal("routes/ExploreRoute.tsx", "features/saved-queries/SavedQueries")).toBeUndefined();
  });

  it("finds every way a file names another", () => {
    const source = [
      'import { a } from "@/features/x/a";',
      'import type { B } from "../b";',
      'import "./c.css";',
      'export { d } from "./d";',
      'const e = lazy(() => import("@/features/y/e"));',
      // (spelled apart: vite.config.ts gives every file that mocks a module a worker of its own)
      'vi' + '.mock("@/api/f", () => ({}));',
      'import raw from "./g.csv?raw";',
      'import { h } from "react";',
    ].join("\n");
    expect(importsOf("features/z/sub/file.ts", source)).toEqual([
      "features/x/a",
      "features/z/b",
      "features/z/sub/c.css",
      "features/z/sub/d",
      "features/y/e",
      "api/f",
      "features/z/sub/g.csv",
    ]);
  });

  it("holds in every file under src/", () => {
    const broken: string[] = [];
    expect(Object.keys(SOURCES)).toContain("features/explore/ExplorePage.tsx");
    for (const [file, source] of Object.entries(SOURCES)) {
      for (const target of importsOf(file, source)) {
        const why = refusal(file, target);
        if (why) broken.push(`${file} → ${target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
