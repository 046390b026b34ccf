import type { Lang } from './i18n';

/**
 * The services every handler reaches through `c.var.services`. app.ts builds them (createServices) and fills this
 * interface in by declaration merging, so nothing in core/ imports app.ts or a module.
 */
// biome-ignore lint/suspicious/noEmptyInterface: completed by app.ts
export interface Services {}

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
