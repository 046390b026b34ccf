import type { IApi } from '@umijs/max';

/**
 * Umi's route preloading chooses chunks by `location.pathname`, which under hash history is always
 * '/': every first load, the sign-in screen included, would download the admin layout and the landing
 * screen too. Screens still load on demand; only that guess is skipped.
 */
export default (api: IApi) => {
  api.skipPlugins(['routePreloadOnLoad']);
};
