import { ensureBuilt } from '../e2e/global-setup';

/**
 * The instances run `npm start`'s entry point, which serves the built console (dist/index.html) and would build it
 * itself, three times at once: it is built here once, when missing or older than its sources.
 */
export default function setup() {
  ensureBuilt();
}
