import path from 'node:path';
import { defineConfig } from 'vitest/config';

const umiExports = path.resolve(__dirname, 'src/.umi/exports.ts');

export default defineConfig({
  test: {
    // two files at a time on every machine (vitest's default leaves one core idle, which on CI's two is half of them):
    // an API file waits on its database much of its time, when a console file can run
    maxWorkers: 2,
    // A React render scheduled by a timer of a console test file's last test (a dialog's or a message's closing
    // motion) can land after the file has ended and its window is gone: "window is not defined" from react-dom, which
    // cannot change a result (the file's tests have all run). CI saw it from three files in turn, on busy runs; any
    // other unhandled error still fails the run.
    onUnhandledError: (error) =>
      error.name === 'ReferenceError' &&
      error.message === 'window is not defined' &&
      /react-dom|scheduler/.test(error.stack ?? '')
        ? false
        : undefined,
    projects: [
      {
        esbuild: { jsx: 'automatic' },
        resolve: {
          alias: [
            { find: /^@umijs\/max$/, replacement: umiExports },
            { find: /^umi$/, replacement: umiExports },
            { find: /^@@\//, replacement: path.resolve(__dirname, 'src/.umi') + '/' },
            { find: /^@\//, replacement: path.resolve(__dirname, 'src') + '/' },
          ],
        },
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/component/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/console.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          // one migrated database per engine, which every test file's databases copy
          globalSetup: ['tests/setup/api-templates.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          // what a journey waits to see (a saved row, a message) is given 10 s, not 1 s: CI's two cores share the
          // server, the browser and the runner
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 120_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: 'release',
          environment: 'node',
          include: ['tests/release/**/*.test.ts'],
          // the release is built when stale, then its production packages installed from the npm cache
          testTimeout: 60_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          // the console the instances serve is built once, if missing (main.ts needs dist/index.html)
          globalSetup: ['tests/cluster/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 240_000,
          // starting the deployment: a database, pgbouncer, haproxy, three instances, the first administrator
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
