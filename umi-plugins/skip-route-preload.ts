import type { IApi } from '@umijs/max';

interface StatsChunk {
  id?: string | number | null;
  files?: string[];
  initial?: boolean;
  origins?: { moduleName?: string; request?: string }[];
}

/** Where src/app.tsx keeps the layout's lazily loaded parts (header actions, tabs, collapse button, menu icons). */
const LAYOUT_PARTS = '@/components/layout/';
/** What Umi's routes module imports for a route without a component of its own. */
const EMPTY_ROUTE = './EmptyRoute';

/**
 * Umi's route preloading chooses chunks by `location.pathname`, which under hash history is always '/': every first
 * load, the sign-in screen included, would download the admin layout and the landing screen too. So it is skipped,
 * and this does the same job by the hash: a small script at the head of index.html starts, next to umi.js, the
 * download of the chunks the opened route needs (its screen, the admin layout and the layout's lazily loaded parts),
 * instead of each only once the one before has loaded and run. Only for a signed-in visit (a token in the persisted
 * state): without one, the sign-in screen is what shows. A chunk's stylesheet is linked (webpack finds the link and
 * does not wait for it again). Each script is an async script tagged the way webpack tags its
 * own, so webpack takes it instead of loading it again; a screen still loads on demand when it is not preloaded.
 */
export default (api: IApi) => {
  api.skipPlugins(['routePreloadOnLoad']);

  let script: string | undefined;

  api.onBuildComplete(({ err, stats }) => {
    if (err || !stats || stats.hasErrors()) return;
    const { chunks = [] } = stats.toJson({ all: false, chunks: true, chunkOrigins: true, ids: true }) as {
      chunks?: StatsChunk[];
    };
    const files: string[] = [];
    const chunkIds: (string | number)[] = [];
    const byRequest = new Map<string, Set<number>>();
    for (const chunk of chunks) {
      if (chunk.initial || chunk.id == null) continue;
      // a chunk's stylesheet too: webpack waits for it before running the chunk, one more round trip otherwise
      const js = (chunk.files ?? []).filter((file) => file.endsWith('.js') || file.endsWith('.css'));
      for (const origin of chunk.origins ?? []) {
        const request = origin.request ?? '';
        const fromRoutes = origin.moduleName?.endsWith('core/route.tsx');
        const key = fromRoutes ? request : request.startsWith(LAYOUT_PARTS) ? LAYOUT_PARTS : undefined;
        if (key === undefined) continue;
        const indexes = byRequest.get(key) ?? new Set<number>();
        for (const file of js) {
          if (!files.includes(file)) {
            files.push(file);
            chunkIds.push(chunk.id);
          }
          indexes.add(files.indexOf(file));
        }
        byRequest.set(key, indexes);
      }
    }
    type Route = { path?: string; file?: string; parentId?: string; redirect?: string; isLayout?: boolean };
    const routes = api.appData.routes as Record<string, Route>;
    const chainFiles = (route: Route): Set<number> => {
      // a route that only groups others (/system) renders Umi's EmptyRoute, a chunk of its own
      const own = new Set([
        ...(route.file ? (byRequest.get(route.file) ?? []) : route.isLayout ? [] : (byRequest.get(EMPTY_ROUTE) ?? [])),
      ]);
      if (route.isLayout) for (const index of byRequest.get(LAYOUT_PARTS) ?? []) own.add(index);
      const parent = route.parentId ? routes[route.parentId] : undefined;
      return parent ? new Set([...chainFiles(parent), ...own]) : own;
    };
    const byPath: Record<string, number[]> = {};
    for (const route of Object.values(routes)) {
      if (!route.path || route.path === '*' || route.isLayout) continue;
      const target = route.redirect ? Object.values(routes).find((r) => r.path === route.redirect && r.file) : route;
      if (target?.file) byPath[route.path] = [...chainFiles(target)];
    }
    const publicPath = api.config.publicPath ?? '/';
    const prefix = `${api.pkg.name}:chunk-`;
    const map = JSON.stringify({ f: files, c: chunkIds, r: byPath });
    script = `(function(){var m=${map};try{if((localStorage.getItem('persist:root')||'').indexOf('accessToken')<0)return}catch(e){return}var p=decodeURI(location.hash.replace(/^#/,'').split('?')[0])||'/',l=m.r[p];if(!l)for(var k in m.r)if(k.indexOf(':')>0&&new RegExp('^'+k.replace(/:[^/]+/g,'[^/]+')+'$').test(p)){l=m.r[k];break}(l||[]).forEach(function(i){var f=${JSON.stringify(publicPath)}+m.f[i],s;if(/\\.css$/.test(f)){s=document.createElement('link');s.rel='stylesheet';s.href=f}else{s=document.createElement('script');s.src=f;s.async=true;s.setAttribute('data-webpack',${JSON.stringify(prefix)}+m.c[i])}document.head.appendChild(s)})})();`;
  });

  // first in <head>: a script after a stylesheet waits for it, and antd's (umi-plugins/antd-static-style.ts) is large
  api.modifyHTML(($) => {
    if (script) $('head').prepend(`<script>${script}</script>\n`);
    return $;
  });
};
