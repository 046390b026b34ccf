/**
 * Stands in for `object-inspect` (build only, see .umirc.ts): qs (through umi-request) reaches it via
 * side-channel only to describe a missing key in an error message; a plain description does.
 * CommonJS, as side-channel requires it.
 */
module.exports = function inspect(value) {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
};
