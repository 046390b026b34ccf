import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const sourceDirs = ['src', 'server', 'tests', 'mock', 'umi-plugins'];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.umi')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) yield file;
  }
}

describe('the repository', () => {
  it('has every document a source file cites (in the repository root or docs/)', () => {
    const missing: string[] = [];
    for (const dir of sourceDirs) {
      for (const file of sourceFiles(path.join(root, dir))) {
        for (const [cited] of readFileSync(file, 'utf8').matchAll(/(?<![\w/.:-])[\w./-]+\.md\b/g)) {
          const found = [path.join(root, cited), path.join(root, 'docs', cited)].some((p) => existsSync(p));
          if (!found) missing.push(`${path.relative(root, file)} cites ${cited}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('lets the console take only types from the server, through @server/', () => {
    const wrong: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const [statement] of text.matchAll(/import\s[^;]*?from\s+'[^']*'/g)) {
        const from = statement.match(/'([^']*)'$/)?.[1] ?? '';
        const server = from.startsWith('@server/') || /^(\.\.\/)+server\//.test(from);
        if (server && !(from.startsWith('@server/') && /^import\s+type\s/.test(statement))) {
          wrong.push(`${path.relative(root, file)}: ${statement.replace(/\s+/g, ' ')}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('links its architecture page from the README, and that page its name map and scaling rules', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('docs/architecture.md');
    const architecture = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    for (const heading of ['## One request', '## Names', '## Decisions', '## Scaling out'])
      expect(architecture).toContain(heading);
  });
});
