import Module from 'node:module';
import path from 'node:path';

// @umijs/plugins ships its own React 16 beside react-redux and react-intl; Umi's bundler aliases
// them to the app's React, so do the same for the CommonJS modules vitest leaves to Node.
const nestedDir = `${path.sep}node_modules${path.sep}@umijs${path.sep}plugins${path.sep}`;
const appRoot = path.resolve(__dirname, '../..');
const moduleInternals = Module as unknown as {
  _resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
};
const resolveFilename = moduleInternals._resolveFilename;
moduleInternals._resolveFilename = function (request, parent, ...rest) {
  if (/^react(-dom)?(\/|$)/.test(request) && parent?.filename?.includes(nestedDir)) {
    return resolveFilename.call(
      this,
      request,
      { ...parent, filename: path.join(appRoot, 'index.js'), paths: [path.join(appRoot, 'node_modules')] } as never,
      ...rest,
    );
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
