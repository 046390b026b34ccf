/**
 * Stands in for `regenerator-runtime/runtime` (build only, see .umirc.ts), which umi's polyfill imports for code that
 * calls a global `regeneratorRuntime` (dva-loading): the global is @babel/runtime's, which the rest of the console's
 * compiled dependencies use anyway, not a second copy of it.
 * Plain JavaScript: it takes the place of a file of node_modules, which is not compiled as TypeScript.
 */
import regeneratorRuntime from '@babel/runtime/regenerator';

globalThis.regeneratorRuntime = regeneratorRuntime;
