import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach, vi } from "vitest";
import { client } from "@/client/client.gen";

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// Test files share their worker's modules and jsdom (vite.config.ts): what a file changed in
// them is put back once it is done, so that the next file starts as if it were alone.
afterAll(() => {
  client.setConfig({ baseUrl: "", fetch: undefined });
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// jsdom lays nothing out, and has no text-range geometry: CodeMirror asks for it when it
// places its cursor and completion list after typing. An empty answer is what a hidden range
// gives in a browser.
if (!Range.prototype.getClientRects) {
  Range.prototype.getClientRects = function getClientRects(): DOMRectList {
    return Object.assign([], { item: () => null }) as unknown as DOMRectList;
  };
  Range.prototype.getBoundingClientRect = function getBoundingClientRect(): DOMRect {
    return new DOMRect();
  };
}
