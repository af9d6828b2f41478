// Lint: typescript-eslint's recommended rules, prettier for layout, and the architecture's boundaries
// (design: modules form an acyclic graph; repositories are the only code that touches the database).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Top-level folders of src/ that hold a domain (business rules, their own tables). */
const DOMAINS = [
  'accounts',
  'billing',
  'contacts',
  'lists',
  'unsubscribes',
  'senders',
  'messaging',
  'inbound',
  'webhooks',
  'idempotency',
  'users',
  'dashboard',
  'mail',
  'payments',
  'links',
  'purchases',
  'numbers',
  'sender-identity',
];
/** Worker code: the delivery worker (dispatch, carriers, recording, sweeper); no domain imports it (they may import delivery/state and delivery/status). */
const WORKER = ['delivery/worker'];
/** Folders above the low layers: common/, queues/, config/, database/, metrics/ and pages/ import none of them. */
const ABOVE_LOW_LAYERS = ['delivery', 'periodic', 'health', 'cli', 'bootstrap', 'smpp', 'smsc-sim'];
/** Everything but common/ (the SMPP wire in src/smpp/ sits just above it, below the carrier and the simulator). */
const ABOVE_THE_WIRE = [...DOMAINS, ...ABOVE_LOW_LAYERS.filter((f) => f !== 'smpp'), 'queues', 'config', 'database', 'metrics', 'pages'];

const importOf = (folders) => `^(\\.\\./)+(${folders.join('|')})/`;
const TYPEORM = {
  paths: [
    { name: 'typeorm', message: 'Only repositories, entities and database/ touch TypeORM (design rule 3).' },
    { name: '@nestjs/typeorm', message: 'Only repositories, entities and database/ touch TypeORM (design rule 3).' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', 'eslint.config.mjs', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  // Plain Node scripts (test runners' wrappers).
  { files: ['**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-duplicate-imports': 'off',
      '@typescript-eslint/consistent-type-imports': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/**/*.entity.ts', 'src/database/**', 'src/entities.ts', 'src/migrations.ts'],
    rules: { 'no-restricted-imports': ['error', TYPEORM] },
  },
  {
    files: ['src/common/**/*.ts', 'src/queues/**/*.ts', 'src/config/**/*.ts', 'src/database/**/*.ts', 'src/metrics/**/*.ts', 'src/pages/**/*.ts'],
    ignores: ['src/database/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...TYPEORM,
          patterns: [{ regex: importOf([...DOMAINS, ...ABOVE_LOW_LAYERS]), message: 'common/, queues/, config/, metrics/ and pages/ import no domain.' }],
        },
      ],
    },
  },
  {
    // common/ is below pages/: the error filter reaches HTML pages only through HtmlErrorResponder.
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...TYPEORM, patterns: [{ regex: importOf([...DOMAINS, ...ABOVE_LOW_LAYERS, 'pages']), message: 'common/ imports no domain and not pages/.' }] },
      ],
    },
  },
  {
    files: ['src/smpp/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { ...TYPEORM, patterns: [{ regex: importOf(ABOVE_THE_WIRE), message: 'src/smpp/ is the SMPP wire: it imports only common/.' }] }],
    },
  },
  {
    // The simulator is an SMSC: it speaks through the wire and knows nothing of the gateway it serves.
    files: ['src/smsc-sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...TYPEORM, patterns: [{ regex: importOf(ABOVE_THE_WIRE.filter((f) => f !== 'smsc-sim')), message: 'src/smsc-sim/ imports only src/smpp/ and common/.' }] },
      ],
    },
  },
  {
    // The pages' small browser script (no bundler, no modules).
    files: ['src/**/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        document: 'readonly',
        navigator: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        URLSearchParams: 'readonly',
        window: 'readonly',
        DOMParser: 'readonly',
      },
    },
  },
  {
    files: ['src/database/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: importOf([...DOMAINS, ...ABOVE_LOW_LAYERS]),
              message: 'database/ imports no domain; the composition root passes the entity and migration lists.',
            },
          ],
        },
      ],
    },
  },
  {
    files: DOMAINS.map((d) => `src/${d}/**/*.ts`),
    ignores: ['src/**/*.repository.ts', 'src/**/*.entity.ts'],
    rules: { 'no-restricted-imports': ['error', { ...TYPEORM, patterns: [{ regex: importOf(WORKER), message: 'Domains import no worker code.' }] }] },
  },
  {
    files: DOMAINS.map((d) => `src/${d}/**/*.{repository,entity}.ts`),
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: importOf(WORKER), message: 'Domains import no worker code.' }] }] },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off', 'no-console': 'off' },
  },
  {
    files: ['src/smsc-sim/**/*.ts', 'src/cli.ts', 'src/main.ts'],
    rules: { 'no-console': 'off' },
  },
);
