import { resourceRoutes } from '../../../core/resource/resource.routes';
import { dictItemResource } from './syscode-item.resource';

export const dictItemRoutes = () => resourceRoutes(dictItemResource, (s) => s.dictItems);
