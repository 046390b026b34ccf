import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PLATFORM_ADMIN, DEMO_TENANT_CODE, DEMO_USERS } from '../../server/src/db/seed/demo';
import { DEMO_REVIEWER } from '../../server/src/db/seed/demo-content';

const readme = readFileSync(path.resolve(__dirname, '../..', 'README.md'), 'utf8');
/** The README's first section, what a newcomer reads before anything else. */
const runIt = readme.slice(readme.indexOf('## Run it'), readme.indexOf('\n## ', readme.indexOf('## Run it') + 1));

/** The cells of the section's table rows: `| a | b | c |` → ['a', 'b', 'c']. */
const rows = runIt
  .split('\n')
  .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, '')),
  );

describe("the README's Run it, for a newcomer", () => {
  it('names every demo account with its tenant and password, in one table', () => {
    const accounts = [
      ...DEMO_USERS.map((user) => [DEMO_TENANT_CODE, user.username, user.password]),
      [DEMO_TENANT_CODE, DEMO_REVIEWER.username, DEMO_REVIEWER.password],
      ['platform', DEMO_PLATFORM_ADMIN.username, DEMO_PLATFORM_ADMIN.password],
    ];
    for (const account of accounts) expect(rows.map((cells) => cells.slice(0, 3))).toContainEqual(account);
  });

  it('says what to wait for on the first start, what to try first, and that the teachers are doctors', () => {
    expect(runIt).toContain('listening on http://localhost:8000');
    expect(runIt).toMatch(/Try first/);
    expect(runIt).toMatch(/teachers .* are doctors/);
  });

  it('stays short', () => {
    expect(runIt.length).toBeLessThan(3_500);
  });
});
