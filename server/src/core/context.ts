import type { Services } from '../app';
import type { Lang } from './i18n';

export interface Principal {
  tenantId: string;
  userId: string;
  sessionId: string;
  clientId: string;
  permissions: ReadonlySet<string>;
}

export interface AppEnv {
  Variables: {
    services: Services;
    lang: Lang;
    requestId: string;
    principal: Principal;
  };
}
