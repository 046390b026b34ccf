import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

async function graph(dir: string, tsConfig: string) {
  return madge(path.join(root, dir), {
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, tsConfig),
    excludeRegExp: [/\.umi/],
  });
}

describe('imports', () => {
  it('form no circle, on the server or in the console', async () => {
    expect((await graph('server/src', 'server/tsconfig.json')).circular()).toEqual([]);
    expect((await graph('src', 'tsconfig.json')).circular()).toEqual([]);
  });

  it('never lead from core/ to app.ts or a module: modules depend on core, not the reverse', async () => {
    const deps = (await graph('server/src', 'server/tsconfig.json')).obj();
    const wrong = Object.entries(deps).flatMap(([file, imports]) =>
      file.startsWith('core/')
        ? imports.filter((i) => i === 'app.ts' || i.startsWith('modules/')).map((i) => `${file} → ${i}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });
});
