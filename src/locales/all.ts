import base from './base';
import dashboard from './dashboard';
import dictionary from './dictionary';
import system from './system';

/**
 * Every catalogue, for what needs them all at once: the server's spreadsheet headers and the tests. The console
 * never imports this file: an area's catalogue loads with its screens.
 */
export const catalogues = { base, system, dictionary, dashboard };
