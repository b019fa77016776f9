/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, URL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// The backend serves the built UI; during development the dev server forwards the API
// (and the agent-facing paths, handy for manual testing) to a locally running backend.
const backend = process.env.VIGIL_BACKEND_URL ?? "http://127.0.0.1:8000";

// react-router's package exports only its development build (extra checks and warnings);
// the production build sits beside it and is what `vite build` ships.
const reactRouterProduction = fileURLToPath(
  new URL("./node_modules/react-router/dist/production/index.mjs", import.meta.url),
);

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every script, stylesheet and SVG
 * of the build; the backend sends the one a browser accepts (backend/app/ui.py). Compressing
 * once here costs nothing per request: the bundles shrink to about a quarter.
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: "vigil-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "dist";
      const files = Object.keys(bundle).filter((f) => /\.(js|css|svg)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const data = await readFile(join(dir, f));
          if (data.length < 1024) return;
          await Promise.all([
            br(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).then((b) => writeFile(join(dir, `${f}.br`), b)),
            gz(data, { level: 9 }).then((g) => writeFile(join(dir, `${f}.gz`), g)),
          ]);
        }),
      );
    },
  };
}

/**
 * Test files that replace a module (`vi.mock`) or the process environment (`vi.stubEnv`, e.g.
 * the time zone) need a fresh module graph and process of their own. Every other file shares
 * its worker's jsdom and module cache with the files run before it, which takes the suite from
 * ~130 s to ~35 s on two cores: setting up jsdom per file was most of its time. The setup file
 * empties the storages and the document after every test either way.
 */
const ownWorld = /\bvi\.(mock|doMock|stubEnv)\(/;
const testFiles = (readdirSync("src", { recursive: true }) as string[])
  .filter((f) => /\.test\.tsx?$/.test(f))
  .map((f) => `src/${f.split("\\").join("/")}`);
const isolatedTests = testFiles.filter((f) => ownWorld.test(readFileSync(f, "utf8")));

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress()],
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      ...(command === "build" ? { "react-router": reactRouterProduction } : {}),
    },
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: {
      "/api": backend,
      "/v1": backend,
      "/prometheus": backend,
    },
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    css: false,
    // a 2-core CI machine runs these beside other suites: a slow render is not a failure
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: "shared", include: ["src/**/*.test.{ts,tsx}"], exclude: isolatedTests, isolate: false } },
      { extends: true, test: { name: "isolated", include: isolatedTests } },
    ],
  },
}));
