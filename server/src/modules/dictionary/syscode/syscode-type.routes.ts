import { resourceRoutes } from '../../../core/resource/resource.routes';
import { dictTypeResource } from './syscode-type.resource';

export const dictTypeRoutes = () => resourceRoutes(dictTypeResource, (s) => s.dictTypes);
