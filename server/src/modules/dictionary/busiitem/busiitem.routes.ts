import { resourceRoutes } from '../../../core/resource/resource.routes';
import { businessItemResource } from './busiitem.resource';

export const businessItemRoutes = () => resourceRoutes(businessItemResource, (s) => s.businessItems);
