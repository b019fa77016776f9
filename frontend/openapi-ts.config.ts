import { defineConfig } from "@hey-api/openapi-ts";

// Regenerates src/client/ from the backend's OpenAPI document (`npm run generate-client`).
// The backend writes backend/openapi.json; nothing in src/client/ is edited by hand.
export default defineConfig({
  input: process.env.VIGIL_OPENAPI ?? "../backend/openapi.json",
  output: { path: "src/client" },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
});
