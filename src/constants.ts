/** Constants of spec.md §9, in one place. */
export const DEFAULT_NAME = 'Umi Max';

export const REQUEST_TIMEOUT_MS = 30_000;
export const ERROR_BATCH_DELAY_MS = 100;
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const PERSIST_RESTORE_TIMEOUT_MS = 5_000;
export const DEFAULT_TOKEN_TYPE = 'bearer';

export const LIST_PAGE_SIZE = 10;
export const LIST_CACHE_TIME_MS = 5 * 60_000;
export const FOCUS_REFRESH_INTERVAL_MS = 5_000;
export const LOAD_MORE_THRESHOLD = 100;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/**
 * The calls every signed-in start makes (getInitialState and the layout): index.html starts them before the console's
 * code has loaded (umi-plugins/early-answers.ts), src/utils/early.ts hands their answers over.
 */
export const START_URLS = {
  me: '/api/auth/me',
  menus: '/api/auth/menus',
  publicSettings: '/api/system/settings/public',
} as const;
/** How long an answer started ahead of the screen that needs it waits to be taken (src/utils/early.ts). */
export const EARLY_ANSWER_TTL_MS = 10_000;
/** How long the shell's extras wait at most for the first page of the list the console opened on (src/utils/firstScreen.ts). */
export const FIRST_PAGE_WAIT_MS = 10_000;

export const BASE_PATH = '/';
export const HISTORY_TYPE = 'hash';
export const MOUNT_ELEMENT_ID = 'root';

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/dashboard/workspace';
export const OAUTH_CLIENT_ID = 'console';
export const DEFAULT_TENANT = 'demo';
/** The tenant whose users operate the platform: only they write platform-owned rows. */
export const PLATFORM_TENANT = 'platform';
export const PERSIST_KEY = 'root';
