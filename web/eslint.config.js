// eslint for the pages' JavaScript (flat config). Run from the repository's root:
//   web/node_modules/.bin/eslint --config web/eslint.config.js
// (tests/test_lint_js.py runs it; .ci/run installs web/ with npm ci first).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["recorder/static/vendor/**", "web/node_modules/**", "tests/js/**"] },
  js.configs.recommended,
  {
    // Every page is ES modules (common.js's helpers are imported, not a global).
    files: ["recorder/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["recorder/static/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["web/eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
