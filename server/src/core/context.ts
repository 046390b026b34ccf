import type { Services } from '../app';
import type { Lang } from './i18n';

export interface Principal {
  tenantId: string;
  userId: string;
  sessionId: string;
  clientId: string;
  permissions: ReadonlySet<string>;
  /** An initial password (set by an administrator or at provisioning) that the user has not yet replaced. */
  mustChangePassword: boolean;
}

export interface AppEnv {
  Variables: {
    services: Services;
    lang: Lang;
    requestId: string;
    principal: Principal;
  };
}
