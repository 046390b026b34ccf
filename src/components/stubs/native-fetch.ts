/**
 * Stands in for `isomorphic-fetch` (build only, see .umirc.ts), which umi-request imports for its
 * side effect: a fetch polyfill. Every browser the console targets has fetch.
 */
export {};
