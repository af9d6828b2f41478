/**
 * Unit tests need nothing running; e2e tests share one fresh database and Redis prefix made by global
 * setup. A few dependencies ship ESM only (content-disposition, under @fastify/static; cookie, which
 * @fastify/cookie loads with import()); jest's CommonJS runtime can neither require ESM nor run a dynamic
 * import() without --experimental-vm-modules, so those files (and the importer) are compiled to CommonJS
 * like our own.
 */
const ESM_ONLY = ['content-disposition', '@fastify/cookie', 'cookie'];
const transform = { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`];

const e2eSupport = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // password-cost.ts: passwords hashed in the test process cost far less than in production (see there).
  setupFiles: ['<rootDir>/test/support/setup-env.ts', '<rootDir>/test/support/password-cost.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/per-file-database.ts'],
};

module.exports = {
  // Some unit tests hash passwords (scrypt) or run real sockets; on a loaded 2-core machine 5 s is too tight.
  // A global option (jest ignores it inside a project); the e2e, chaos and scale files set 90 s in setup-env.ts.
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/unit/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      transform,
      transformIgnorePatterns,
      ...e2eSupport,
    },
    {
      // Real processes of the built service (APP_ROLE=api|worker) and the SMSC simulator, faults injected.
      displayName: 'chaos',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/chaos/**/*.chaos-spec.ts'],
      transform,
      transformIgnorePatterns,
      ...e2eSupport,
    },
    {
      // Minutes, not seconds: a migration on a database of a million messages (npm run test:scale, in .ci/run).
      displayName: 'scale',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'],
      transform,
      transformIgnorePatterns,
      setupFiles: ['<rootDir>/test/support/setup-env.ts'],
    },
  ],
};
