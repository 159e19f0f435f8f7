/** Unit specs sit next to the code; end-to-end specs live in test/e2e and share one migrated database. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      // aliases are rewritten at compile time, so globalSetup (which ignores moduleNameMapper) sees them too
      baseUrl: __dirname,
      paths: {
        '@app/platform/core': ['libs/platform/src/core.ts'],
        '@app/*': ['libs/*/src'],
        '@migrations': ['migrations/index.ts'],
      },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '(libs|apps)/.*\\.spec\\.ts$|test/e2e/.*\\.e2e-spec\\.ts$',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@app/platform/core$': '<rootDir>/libs/platform/src/core.ts',
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
    '^@migrations$': '<rootDir>/migrations/index.ts',
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // a Nest app boots per file; on a loaded 2-core machine a boot has been seen to take over 30 s
  testTimeout: 60000,
  // one test file at a time (they share the run's database) in ONE worker process, replaced when it
  // holds more than this after a file: in band, the heap grew past 4 GB over 130 files and the
  // garbage collector slowed the last ones down to timeouts
  maxWorkers: 1,
  workerIdleMemoryLimit: '1536MB',
};
