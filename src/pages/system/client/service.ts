import type { ClientSecret, RevokedTokens } from '@server/modules/system/client/client.schema';
import type { z } from 'zod';
import { resourceService } from '@/services/resource';
import type { CreateOauthClient, OauthClient, UpdateOauthClient } from './descriptor';

export const clients = resourceService<OauthClient, CreateOauthClient, UpdateOauthClient>('system/client');

export const rotateSecret = (id: string) => clients.action<z.infer<typeof ClientSecret>>(id, 'rotate-secret');
export const revokeTokens = (id: string) => clients.action<z.infer<typeof RevokedTokens>>(id, 'revoke-tokens');
