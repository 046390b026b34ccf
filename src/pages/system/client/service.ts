import { resourceService } from '@/services/resource';
import type { CreateOauthClient, OauthClient, UpdateOauthClient } from './descriptor';

export const clients = resourceService<OauthClient, CreateOauthClient, UpdateOauthClient>('system/client');

export const rotateSecret = (id: string) => clients.action<{ clientSecret: string }>(id, 'rotate-secret');
export const revokeTokens = (id: string) => clients.action<{ revokedSessions: number }>(id, 'revoke-tokens');
