// Jest projects: unit (pure code, fakes), integration (the built bundle in the emulator against
// the reference service in a child process), e2e (the sidebar and workbench in Chromium).
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] };
const common = { transform, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'mjs', 'json'] };

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'], slowTestThreshold: 30, setupFilesAfterEnv: ['<rootDir>/test/helpers/scan-secrets.ts', '<rootDir>/test/helpers/children.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'], slowTestThreshold: 60, setupFilesAfterEnv: ['<rootDir>/test/helpers/children.ts'] },
  ],
  testTimeout: 60000,
  // Resolves Chromium once (the packaged build unpacks on first use) before workers start.
  globalSetup: '<rootDir>/test/helpers/browser-setup.ts',
  transform,
};
