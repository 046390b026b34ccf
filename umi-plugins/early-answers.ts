import type { IApi } from '@umijs/max';
import { DEFAULT_TOKEN_TYPE, LIST_PAGE_SIZE, LOGIN_PATH, PERSIST_KEY, START_URLS } from '../src/constants';

/** dva's namespace of the console's state (src/models/root.ts NAMESPACE): its slice of the persisted state. */
const SLICE = 'root';

interface Route {
  path?: string;
  firstPage?: true;
}

/**
 * Starts, from a small script in index.html, the calls a signed-in start needs (the user, the menu, the public
 * settings and, opened on a list screen, its first page: `firstPage` in routes.ts), while umi.js and the screen's
 * chunks still download and run: by the time getInitialState asks, their answers are there or on their way
 * (src/utils/early.ts takes them; one that failed is asked again through the request layer, which handles it). The
 * token and language are read where the console keeps them (the persisted state, Umi's locale).
 */
export default (api: IApi) => {
  api.modifyHTML(($) => {
    const lists = Object.values(api.appData.routes as Record<string, Route>)
      .filter((route) => route.firstPage && route.path)
      .map((route) => route.path);
    const script = `(function(){try{var s=JSON.parse(JSON.parse(localStorage.getItem('persist:${PERSIST_KEY}')||'{}').${SLICE}||'{}'),t=s.token||{};if(!t.accessToken)return;var p=decodeURI(location.hash.replace(/^#/,'').split('?')[0])||'/';if(p===${JSON.stringify(LOGIN_PATH)})return;var h={Authorization:(t.type||${JSON.stringify(DEFAULT_TOKEN_TYPE)})+' '+t.accessToken,'Accept-Language':localStorage.getItem('umi_locale')||'zh-CN'},u=${JSON.stringify(Object.values(START_URLS))},e=window.__earlyAnswers={};if(${JSON.stringify(lists)}.indexOf(p)>=0)u.push('/api'+p+'?current=1&pageSize=${LIST_PAGE_SIZE}');u.forEach(function(x){var a=fetch(x,{headers:h}).then(function(r){if(!r.ok)throw new Error(String(r.status));return r.json()}).then(function(b){if(b&&b.success===false)throw new Error('refused');return b});a.catch(function(){});e[x]={answer:a,at:Date.now()}})}catch(x){}})();`;
    $('head').prepend(`<script>${script}</script>\n`);
    return $;
  });
};
