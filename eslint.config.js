// Lint for the whole tree: typescript-eslint's recommended rules, and the folder boundaries of
// README's Layout as no-restricted-imports, so a wrong arrow fails in the editor as well as in
// tests/boundaries.test.ts (which also reads the inner arrows of engine/ and finds circles).

import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const NODE = `^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`;
const OUT_OF_ENGINE = '(^|/)(ipc|plugin|ui)/';
/** The router's stages below its public face, top to bottom (README's Layout). */
const ROUTE_STAGES = ['plan', 'pairs', 'escape', 'repair', 'zones', 'finish', 'explain', 'negotiate', 'design', 'core'];

/** An import rule for a group of files: import paths matching any of these regular expressions
 *  are not theirs to use (engine/ as a whole forbids node builtins and the I/O folders too). */
function forbid(files, regexes, message) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }] } };
}

/** engine/ files: besides `regexes`, no node builtins and nothing of ipc/, plugin/ or ui/. */
function forbidInEngine(files, regexes, message) {
  return forbid(files, [NODE, OUT_OF_ENGINE, ...regexes], message);
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.tmp/', 'bench/out/', 'tests/artifacts/', 'tests/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' },
    },
    rules: {
      // Unused arguments keep a callback's signature readable; a leading underscore marks them.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Type checking is tsc's (npm run typecheck); these only duplicate it for .ts files.
      'no-undef': 'off',
      'no-redeclare': 'off',
      // A variable a callback reads before the one assignment that sets it cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The async code of the plugin (the host, its channel, the panel's server, the workers) and of
    // the IPC client: a promise nobody awaits or catches loses its error, so the type-checked
    // promise rules hold it.
    files: ['plugin/**/*.ts', 'ipc/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Tests read JSON written by other tools (kicad-cli, the CLI's own output) and poke at it.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // engine/: no I/O and nothing of the folders that do it.
  forbidInEngine(['engine/**/*.ts'], [], 'engine/ has no I/O: it imports no node builtins and nothing of ipc/, plugin/ or ui/.'),
  {
    // The panel is a page in a browser: from the engine it takes types only (the tool results).
    files: ['ui/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(engine|ipc|plugin)/',
              allowTypeImports: true,
              message: 'ui/ runs in a browser: it imports only types from engine/, and nothing of ipc/ or plugin/.',
            },
            { regex: NODE, message: 'ui/ runs in a browser: no node builtins.' },
          ],
        },
      ],
    },
  },
  forbid(['ipc/**/*.ts'], ['(^|/)(engine|plugin|ui)/'], 'ipc/ is a self-contained client: it imports nothing of engine/, plugin/ or ui/.'),
  // Inside engine/ (the table of tests/boundaries.test.ts). A later block replaces an earlier one
  // for the same files, so each states all that its files may not import.
  forbidInEngine(['engine/geom/**/*.ts'], ['^\\.\\./'], 'geom/ is the bottom: it imports nothing outside itself.'),
  forbidInEngine(['engine/board/**/*.ts'], ['^\\.\\./(?!geom/)'], 'board/ imports only geom/.'),
  forbidInEngine(
    ['engine/kicad/**/*.ts', 'engine/drc/**/*.ts', 'engine/render/**/*.ts'],
    ['^\\.\\./(?!geom/|board/)'],
    'kicad/, drc/ and render/ stand on board/ and geom/ only.',
  ),
  forbidInEngine(['engine/route/core/**/*.ts'], ['^\\.\\./(?!\\.\\./geom/)'], 'The route core sees only geom/ and its host interface (core/host.ts).'),
  forbidInEngine(
    ['engine/route/core/host.ts'],
    ['^\\.\\./(?!\\.\\./geom/|\\.\\./board/model\\.ts$)'],
    "The host interface names only geom/ and the board model's types.",
  ),
  // The router's stages, each importing only those below it (ROUTE_STAGES in tests/boundaries.test.ts).
  ...ROUTE_STAGES.slice(0, -1).map((stage, i) =>
    forbidInEngine(
      [`engine/route/${stage}/**/*.ts`],
      [
        `^\\.\\./(${ROUTE_STAGES.slice(0, i).concat('index.ts').join('|')})(/|$)`,
        '^\\.\\./\\.\\./(kicad|session|render)/',
        ...(['plan', 'pairs', 'design'].includes(stage) ? [] : ['^\\.\\./\\.\\./drc/(?!connectivity\\.ts$)']),
      ],
      `route/${stage}/ imports only the stages below it (${ROUTE_STAGES.slice(i + 1).join(', ')}), never the file format or the session${['plan', 'pairs', 'design'].includes(stage) ? '' : ', and of the DRC only its contact rule'}.`,
    ),
  ),
  forbidInEngine(['engine/route/types.ts'], ['^\\./', '^\\.\\./(?!geom/|board/)'], "The router's vocabulary stands on geom/ and board/ only."),
  forbidInEngine(['engine/route/index.ts'], ['^\\.\\./(kicad|session|render)/'], 'route/ never sees the file format or the session.'),
  forbidInEngine(
    ['engine/session/**/*.ts'],
    ['^\\.\\./kicad/', '^\\.\\./route/(?!index\\.ts$)'],
    'The session gets its design and files through its ports, never from kicad/, and reaches the router through engine/route/index.ts only.',
  ),
);
