import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

/** The web app's feature folders: none may import another (compose features in app/). */
const webFeatures = readdirSync(`${import.meta.dirname}/apps/web/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Every package declares what it imports (import-x/no-extraneous-dependencies): a workspace's
 * sources only its own dependencies; its tests and build configuration also its devDependencies
 * and the root's (the shared tools: Vitest, Playwright); the root's own files (e2e, bench,
 * configuration) the root's. Workspace packages (@sluice/shared, …) count too (includeInternal).
 */
const workspaces = ['packages/shared', 'apps/server', 'apps/web', 'apps/simulator'];
const testAndBuildFiles = ['**/*.test.{ts,tsx}', 'test/**', 'src/test/**', 'build/**', '*.config.ts'];
const declared = (packageDirs, devDependencies) => ({
  'import-x/no-extraneous-dependencies': [
    'error',
    {
      packageDir: packageDirs.map((dir) => `${import.meta.dirname}/${dir}`),
      devDependencies,
      includeInternal: true,
      includeTypes: true,
    },
  ],
});
const dependencyRules = [
  ...workspaces.map((dir) => ({ files: [`${dir}/**/*.{ts,tsx,js}`], rules: declared([dir], false) })),
  ...workspaces.map((dir) => ({
    files: testAndBuildFiles.map((pattern) => `${dir}/${pattern}`),
    rules: declared([dir, '.'], true),
  })),
  { files: ['e2e/**', 'bench/**', '*.{ts,js}'], rules: declared(['.'], true) },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'apps/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-extraneous-class': 'off',
      'import-x/no-cycle': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // TypeScript sources are imported without their extension: without these the import rules
    // resolve nothing there, and the layering below would go unchecked.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            { target: './apps/web/src/components', from: './apps/web/src/features' },
            { target: './apps/web/src/lib', from: './apps/web/src/features' },
            ...webFeatures.map((name) => ({
              target: `./apps/web/src/features/${name}`,
              from: './apps/web/src/features',
              except: [`./${name}`],
              message: 'Features do not import each other: move what they share to components/ or lib/, or compose them in app/.',
            })),
          ],
        },
      ],
    },
  },
  {
    // TypeScript sources are imported without (or with) their extension: the import rules resolve them.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
  },
  {
    // Queries live in repositories (docs/architecture.md): a route or a service that builds one fails lint.
    files: ['apps/server/src/**/*.routes.ts', 'apps/server/src/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['sql'],
              message: 'SQL lives in repositories: move this to a <domain>.repository.ts method.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          message: 'Queries live in repositories: move this query to a <domain>.repository.ts method.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'SQL lives in repositories: move this to a <domain>.repository.ts method.',
        },
      ],
    },
  },
  ...dependencyRules,
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
