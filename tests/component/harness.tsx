import { AccessContext } from '@@/plugin-access/context';
import { render } from '@testing-library/react';
import { createHistory, IntlProvider } from '@umijs/max';
import { Provider } from '@umijs/plugins/libs/dva';
import { AppContext } from '@umijs/renderer-react/dist/appContext';
import { type ReactNode, useLayoutEffect, useState } from 'react';
import { type RouteObject, Router, useRoutes } from 'react-router-dom';
import { combineReducers, createStore, type Reducer, type Store } from 'redux';
import { catalogues } from '@/locales/all';
import { messagesOf } from '@/locales/catalogue';
import model, { initialRootState, type RootActionType, type RootState, type SysCode } from '@/models/root';
import { dispatchRoot, persistEnhancer, persistedReducer } from '@/utils/store';
import { dictSeeds } from '../../server/src/db/seed/dictionaries';

/** The dva store as the app builds it: the root model, persisted by redux-persist. */
export function createTestStore() {
  const root: Reducer<RootState> = (state = initialRootState, action) => {
    const [namespace, type] = String(action.type).split('/');
    const reducer = (model.reducers as Partial<Record<string, (typeof model.reducers)[RootActionType]>>)[type];
    return namespace === 'root' && reducer ? reducer(state, action) : state;
  };
  return createStore(persistedReducer(combineReducers({ root })), undefined, persistEnhancer) as unknown as Store<{
    root: RootState;
  }>;
}

/** A store as a screen test starts from: nothing persisted, these dictionaries loaded. */
export function freshStore(sysCodes: SysCode[] = []): TestStore {
  localStorage.clear();
  const store = createTestStore();
  if (sysCodes.length) dispatchRoot('SET_SYSCODE', sysCodes);
  return store;
}

/** Every catalogue's texts in a locale: a screen test renders its screen without the area's load. */
const textsOf = (locale: 'zh-CN' | 'en-US') =>
  Object.assign({}, ...Object.values(catalogues).map((catalogue) => messagesOf(catalogue, locale)));
const texts = { 'zh-CN': textsOf('zh-CN'), 'en-US': textsOf('en-US') };

const TestIntl = IntlProvider as unknown as (props: {
  locale: string;
  messages: Record<string, string>;
  children: ReactNode;
}) => JSX.Element;

export type TestStore = ReturnType<typeof createTestStore>;

function Routed({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

type MemoryHistory = ReturnType<typeof createHistory>;

function TestRouter({ history, children }: { history: MemoryHistory; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  useLayoutEffect(
    () => history.listen(({ location: next }: { location: typeof location }) => setLocation(next)),
    [history],
  );
  return (
    <Router location={location} navigator={history}>
      {children}
    </Router>
  );
}

/** The access of a user granted these permission codes. */
export const grant = (codes: string[]) => Object.fromEntries(codes.map((c) => [c, true]));

export function renderApp(options: {
  store: TestStore;
  routes?: RouteObject[];
  initialPath?: string;
  access?: Record<string, boolean>;
  children?: ReactNode;
  /** zh-CN unless said. */
  locale?: 'zh-CN' | 'en-US';
}) {
  const history = createHistory({ type: 'memory', initialEntries: [options.initialPath ?? '/'] });
  const tree = (
    <Provider store={options.store}>
      <TestIntl locale={options.locale ?? 'zh-CN'} messages={texts[options.locale ?? 'zh-CN']}>
        <AccessContext.Provider value={(options.access ?? {}) as never}>
          <AppContext.Provider value={{ clientRoutes: options.routes ?? [] } as never}>
            <TestRouter history={history}>
              {options.routes ? <Routed routes={options.routes} /> : options.children}
            </TestRouter>
          </AppContext.Provider>
        </AccessContext.Provider>
      </TestIntl>
    </Provider>
  );
  return { tree, history };
}

/**
 * Renders the app at `path`, its screens at `routes`, as a user granted `codes` sees it; gives what `render` gives, and
 * the app's history.
 */
export function renderAt(store: TestStore, path: string, routes: RouteObject[], codes: string[] = []) {
  const { tree, history } = renderApp({ store, access: grant(codes), initialPath: path, routes });
  return { ...render(tree), history };
}

/** The server's built-in dictionaries, as `GET /api/dictionary/catalog/syscodes` answers them, for the types named. */
export function seededSysCodes(...types: string[]): SysCode[] {
  return dictSeeds
    .filter((d) => types.includes(d.code))
    .flatMap((d) =>
      d.items.map(([value, label, labelEn, color], sort) => ({ type: d.code, value, label, labelEn, color, sort })),
    );
}
