import assess from './assess.json';
import base from './base.json';
import community from './community.json';
import content from './content.json';
import dashboard from './dashboard.json';
import dictionary from './dictionary.json';
import file from './file.json';
import message from './message.json';
import people from './people.json';
import system from './system.json';
import teaching from './teaching.json';

/**
 * Every catalogue, for what needs them all at once: the server's spreadsheet headers and the tests. The console
 * never imports this file: an area's catalogue loads with its screens.
 */
export const catalogues = {
  base,
  system,
  dictionary,
  dashboard,
  people,
  file,
  assess,
  teaching,
  content,
  community,
  message,
};
