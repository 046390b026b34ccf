import file from '@/locales/file.json';
import { addCatalogue } from '@/utils/i18n';

// imported by every screen of the area, and by the file components other screens show (attachments): its texts join
// the console's messages before the first of them renders
addCatalogue(file);
