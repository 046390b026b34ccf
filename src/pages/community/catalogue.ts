import community from '@/locales/community.json';
import { addCatalogue } from '@/utils/i18n';

// imported by every screen of the area: its texts join the console's messages before the first of them renders
addCatalogue(community);
