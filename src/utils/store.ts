import type { Reducer, Store, StoreEnhancer } from 'redux';
import { type Persistor, persistReducer, persistStore } from 'redux-persist';
import autoMergeLevel2 from 'redux-persist/lib/stateReconciler/autoMergeLevel2';
import storage from 'redux-persist/lib/storage';
import { PERSIST_KEY, PERSIST_RESTORE_TIMEOUT_MS } from '@/constants';
import { ACTION_FIELDS, initialRootState, NAMESPACE, type RootActionType, type RootState } from '@/models/root';

/** dva's store, as far as this module reads it: the root model's slice (other models' are not read here). */
type AnyStore = Store<{ [NAMESPACE]?: RootState }, { type: string; payload?: unknown }>;

let persistor: Persistor | undefined;
let store: AnyStore | undefined;
const rehydrationWaiters: Array<() => void> = [];
/** Actions dispatched before dva created its store (plugin-initialState renders dva only after getInitialState). */
const pending: Array<{ type: string; payload: unknown }> = [];

/** dva `onReducer`: the whole dva state is persisted under `persist:root`, written on every change. */
export const persistConfig = {
  key: PERSIST_KEY,
  storage,
  throttle: 0,
  timeout: PERSIST_RESTORE_TIMEOUT_MS,
  blacklist: ['loading', '@@dva'],
  stateReconciler: autoMergeLevel2,
};

export const persistedReducer = <S>(reducer: Reducer<S>) => persistReducer<S>(persistConfig, reducer);

/** dva `extraEnhancers` entry: starts redux-persist as soon as dva creates its store. */
export const persistEnhancer: StoreEnhancer = (createStore) =>
  ((...args: Parameters<typeof createStore>) => {
    const created = createStore(...args);
    store = created as AnyStore;
    persistor = persistStore(created, undefined, () => {
      for (const action of pending.splice(0)) created.dispatch(action);
      for (const resolve of rehydrationWaiters.splice(0)) resolve();
    });
    return created;
  }) as typeof createStore;

export const getPersistor = () => persistor;

/**
 * The store dva created (captured by the enhancer). The root model has reducers only, so plain
 * actions need none of dva's middlewares.
 */
export const getStore = (): AnyStore | undefined => store;

/** The persisted state as written to local storage, for the time before the store exists. */
export function readPersistedRoot(): RootState | undefined {
  try {
    const raw = globalThis.localStorage?.getItem(`persist:${PERSIST_KEY}`);
    if (!raw) return undefined;
    const slice = JSON.parse(raw)[NAMESPACE];
    return slice ? { ...initialRootState, ...JSON.parse(slice) } : undefined;
  } catch {
    return undefined;
  }
}

export function getRootState(): RootState {
  const current = getStore()?.getState()?.[NAMESPACE] as RootState | undefined;
  if (current) return current;
  const early = pending.reduce<RootState>((state, action) => {
    const field = ACTION_FIELDS[action.type.slice(NAMESPACE.length + 1) as RootActionType];
    return field ? { ...state, [field]: action.payload } : state;
  }, readPersistedRoot() ?? initialRootState);
  return early;
}

export function dispatchRoot(type: RootActionType, payload: unknown) {
  const action = { type: `${NAMESPACE}/${type}`, payload };
  const current = getStore();
  if (current && (!persistor || persistor.getState().bootstrapped)) current.dispatch(action);
  else pending.push(action);
}

/** Resolves once the persisted state is back (or restoring gave up after the time-out). */
export function whenRehydrated(): Promise<void> {
  if (!persistor || persistor.getState().bootstrapped) return Promise.resolve();
  return new Promise((resolve) => rehydrationWaiters.push(resolve));
}

export function hasAccessToken(state: RootState = getRootState()): boolean {
  return Boolean((state.token as { accessToken?: string })?.accessToken);
}
