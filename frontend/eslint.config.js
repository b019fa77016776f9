import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Imports run one way: routes → features → shared (components, api, lib) → client. These rules
// catch the `@/` imports that break it while typing; src/layers.test.ts checks every import
// (relative ones too) in the unit tests.
const LAYERS_DOC = "see frontend/README.md, Layers";
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const layerRules = [
  ...features.map((name) => ({
    files: [`src/features/${name}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@/features/(?!${name}/)`,
              message: `A feature never imports another: move what both need to components/, api/ or lib/, or let the route pass it in (${LAYERS_DOC}).`,
            },
            { regex: "^@/routes/", message: `A feature never imports a route (${LAYERS_DOC}).` },
          ],
        },
      ],
    },
  })),
  {
    files: ["src/{components,api,lib}/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^@/(features|routes)/", message: `Shared code never imports a feature or a route (${LAYERS_DOC}).` },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ["dist", "src/client", "node_modules"] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ["**/*.{ts,tsx}"],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-restricted-exports": ["error", { restrictDefaultExports: { direct: true } }],
    },
  },
  ...layerRules,
  {
    files: ["vite.config.ts", "openapi-ts.config.ts", "eslint.config.js"],
    rules: { "no-restricted-exports": "off" },
  },
);
