import type { IApi } from '@umijs/max';

/**
 * `@server/...` names the server's modules for the console's type checker only: the console imports its request
 * and answer types from the server's zod schemas with `import type`, which the build erases. The bundler is given
 * no such alias on purpose, so a value import of server code fails the build instead of entering the bundle.
 */
export default (api: IApi) => {
  api.modifyTSConfig((config) => {
    config.compilerOptions.paths['@server/*'] = ['../../server/src/*'];
    return config;
  });
};
