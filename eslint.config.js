// The linter of the browser's modules (static/js/), run by scripts/test.sh beside
// `tsc -p .` (tsconfig.json): plain ES modules, served as written, no build step.
import js from "@eslint/js";
import globals from "globals";

/** Django's JavaScript catalogue (templates/base.html loads it before any module). */
const jsi18n = Object.fromEntries(
  ["gettext", "ngettext", "pgettext", "npgettext", "interpolate"].map((name) => [name, "readonly"]),
);

export default [
  { ignores: [".venv/**", "node_modules/**", "staticfiles/**", "htmlcov/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "*/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...jsi18n },
    },
    rules: {
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": ["error", { destructuring: "all" }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["static/js/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
