import { resourceRoutes } from '../../../core/resource/resource.routes';
import { errorCodeResource } from './errcode.resource';

export const errorCodeRoutes = () => resourceRoutes(errorCodeResource, (s) => s.errorCodes);
